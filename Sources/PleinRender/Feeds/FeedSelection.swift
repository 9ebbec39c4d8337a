import PleinCore
import PleinModel

/// Which entries each feed holds: the newest `feed_limit` of what its page shows.
struct FeedSelection: Rendering {
    let inputs: RenderInputs

    var entries: FeedEntries { FeedEntries(inputs: inputs) }

    /// An entry known by its date and id only, built when it makes the cut. The id is only
    /// needed to order entries published at the same moment, so it is made only then.
    struct Candidate {
        let published: Moment
        let id: () -> String
        let make: () -> FeedEntry
        /// A report's (`reply`: nil) or a reply's: what the site's feed keeps of it from build to
        /// build (`NewestReports`).
        var report: NewestReports.Entry?

        init(published: Moment, id: @autoclosure @escaping () -> String, make: @escaping () -> FeedEntry) {
            self.published = published
            self.id = id
            self.make = make
        }
    }

    func feed(_ id: FeedID) -> Feed {
        let limit = site.feedLimit
        // Choose the newest entries from their dates and ids first: only those are written out
        // (the site feed would otherwise render every report and reply to keep fifty).
        // A member's feed says what they did, briefly: the bodies are on the pages (and would
        // otherwise be written again in every feed that holds them).
        var brief = false
        if case .member = id { brief = true }
        let atom = routes.feed(id)
        func make(_ title: String, _ subtitle: String, page: String, _ candidates: [Candidate]) -> Feed {
            let chosen = Self.newest(candidates, limit: limit)
            return Feed(
                id: routes.absolute(atom), title: title, subtitle: subtitle, atomPath: atom,
                jsonPath: id.hasJSONTwin ? routes.jsonFeed(atom) : nil, pagePath: page,
                entries: chosen.map { brief ? $0.make().brief : $0.make() })
        }
        switch id {
        case .site:
            var candidates = newestReports(limit: limit)
            // Of the groups, only when their albums and completions were made; only the
            // chosen ones are read whole.
            for gid in view.groupOrder {
                guard let activity = view.groupActivity(gid), activity.isListed else { continue }
                candidates += activity.albums.map(albumCandidate)
                candidates += activity.completions.map(completionCandidate)
                candidates += (view.groupEvents(gid) ?? view.miss("group \(gid)", nil))?.events.map(groupEventCandidate) ?? []
            }
            // Who joined is history: a member who left since still joined then.
            candidates += view.readingEvery { (view.memberOrder + view.formerMembers).compactMap(joinedCandidate) }
            return make(strings.format("feed_site", ["site": site.title]), site.description,
                        page: routes.home, candidates)
        case .area(let aid):
            guard let area = view.area(aid) else { return view.miss("area \(aid)", make("", "", page: routes.area(aid), [])) }
            return make(strings.format("feed_area", ["area": names.area(area)]),
                        strings.format("feed_area_subtitle", ["area": names.area(area)]),
                        page: routes.area(aid),
                        area.reports.compactMap { reportCandidate($0) })
        case .report(let rid):
            guard let r = view.report(rid) else { return view.miss("report \(rid)", make("", "", page: routes.report(rid), [])) }
            return make(strings.format("feed_report", ["title": r.title]), strings["feed_report_subtitle"],
                        page: routes.report(rid),
                        r.replies.indices.compactMap { replyCandidate(rid, $0) })
        case .group(let gid):
            guard let g = view.group(gid) else { return view.miss("group \(gid)", make("", "", page: routes.group(gid), [])) }
            // One entry per album, its photos inside: not one per photo.
            var candidates = g.albums.map(albumCandidate)
            candidates += (g.openGoals + g.completedGoals).compactMap(goalAddedCandidate)
            candidates += g.completedGoals.map(completionCandidate)
            candidates += g.events.map(groupEventCandidate)
            return make(strings.format("feed_group", ["group": g.name]), strings.format("feed_group_subtitle", ["group": g.name]),
                        page: routes.group(gid), candidates)
        case .member(let mid):
            guard let m = view.member(mid) else { return view.miss("member \(mid)", make("", "", page: routes.member(mid), [])) }
            var candidates = m.reports.compactMap { reportCandidate($0) }
            candidates += m.replies.compactMap { replyCandidate($0.report, $0.index) }
            candidates += m.completedGoals.compactMap(view.goal).map(completionCandidate)
            for key in m.albums {
                guard let album = view.album(key), album.by == mid || album.photos.contains(where: { $0.by == mid }) else { continue }
                candidates.append(albumCandidate(album))
            }
            if let joined = joinedCandidate(mid) { candidates.append(joined) }
            return make(strings.format("feed_member", ["name": m.name]), strings.format("feed_member_subtitle", ["name": m.name]),
                        page: routes.member(mid), candidates)
        case .following(let mid):
            guard let m = view.member(mid) else { return view.miss("member \(mid)", make("", "", page: routes.member(mid), [])) }
            var candidates: [Candidate] = []
            for rid in m.follows { candidates += replyCandidates(rid) }
            return make(strings.format("feed_following", ["name": m.name]), strings.format("feed_following_subtitle", ["name": m.name]),
                        page: routes.member(mid), candidates)
        }
    }

    /// The newest `limit` candidates, newest first, by id among those of one moment. Only the
    /// candidates as new as the `limit`-th are ordered, and each one's id is made once.
    static func newest(_ candidates: [Candidate], limit: Int) -> [Candidate] {
        guard limit > 0, !candidates.isEmpty else { return [] }
        var kept = candidates
        if candidates.count > limit {
            let cut = candidates.map(\.published).sorted(by: >)[limit - 1]
            kept = candidates.filter { $0.published >= cut }
        }
        let keyed = kept.map { ($0, $0.id()) }
        return keyed.sorted { a, b in a.0.published != b.0.published ? a.0.published > b.0.published : a.1 < b.1 }.prefix(limit).map(\.0)
    }

    /// The newest reports and replies, as candidates for the site's feed: every one, or as many
    /// as two feeds hold. A build after edits brings the last build's up to date with the reports
    /// it changed (`NewestReports`) rather than reading every report's times and replies.
    func newestReports(limit: Int) -> [Candidate] {
        let kept = 2 * max(limit, 1)
        let newest: NewestReports = view.updated("newest:site-reports", every: [.everyReportTimes, .everyReportReplies], update: { bytes, changed -> NewestReports? in
            guard let before = NewestReports(bytes: bytes) else { return nil }
            let edited = Set(changed.compactMap(NewestReports.report(changedBy:)))
            var candidates = before.entries.filter { !edited.contains($0.report) }.map(candidate)
            var made: [Candidate] = []
            for rid in edited.sorted() {
                // (A report taken out has no times.)
                guard view.reportTimes(rid) != nil else { continue }
                guard let replies = view.reportReplies(rid) else { return nil }
                made += [reportCandidate(rid)].compactMap { $0 }
                made += replies.replies.indices.compactMap { replyCandidate(rid, $0) }
            }
            // When entries were left out (older than the last kept), those of the edited reports
            // that come after it are left out too: what is kept is still the newest of all.
            if before.more, let last = before.entries.last.map(candidate) {
                let lastID = last.id()
                made = made.filter { $0.published != last.published ? $0.published > last.published : $0.id() < lastID }
            }
            candidates += made
            // (As many as a feed shows must be known.)
            guard !before.more || candidates.count >= limit else { return nil }
            return NewestReports(Self.newest(candidates, limit: kept), more: before.more || candidates.count > kept)
        }, make: {
            // (Every report's times and replies, as one read each; the chosen entries read theirs.)
            let every = view.readingEvery {
                var reports = view.reportOrder.compactMap { reportCandidate($0) }
                for rid in view.reportOrder { reports += replyCandidates(rid) }
                return reports
            }
            return NewestReports(Self.newest(every, limit: kept), more: every.count > kept)
        }, bytes: { $0.bytes })
        return newest.entries.map(candidate)
    }

    // Candidates read only when things were published; an entry reads the whole record when
    // it makes the cut.
    func reportCandidate(_ id: String) -> Candidate? {
        guard let r = view.reportTimes(id) else { return view.miss("report \(id)", nil) }
        var candidate = Candidate(published: r.at, id: entries.tagURI(r.at, routes.report(id).trimmingSlash)) { entries.reportEntry(id) }
        candidate.report = .init(published: r.at, report: id, reply: nil)
        return candidate
    }

    /// The candidates of a report's replies.
    func replyCandidates(_ report: String) -> [Candidate] {
        guard let replies = view.reportReplies(report) else { return view.miss("report \(report)", []) }
        return replies.replies.indices.compactMap { replyCandidate(report, $0) }
    }

    func replyCandidate(_ report: String, _ index: Int) -> Candidate? {
        guard let replies = view.reportReplies(report)?.replies, replies.indices.contains(index) else { return view.miss("report \(report)", nil) }
        let reply = replies[index]
        var candidate = Candidate(published: reply.at, id: entries.tagURI(reply.at, routes.report(report) + "replies/" + reply.name)) {
            entries.replyEntry(report, index)
        }
        candidate.report = .init(published: reply.at, report: report, reply: (index, reply.name))
        return candidate
    }

    /// The candidate of an entry kept from the last build (it reads nothing until it is chosen).
    func candidate(_ entry: NewestReports.Entry) -> Candidate {
        var candidate: Candidate
        if let (index, name) = entry.reply {
            candidate = Candidate(published: entry.published, id: entries.tagURI(entry.published, routes.report(entry.report) + "replies/" + name)) {
                entries.replyEntry(entry.report, index)
            }
        } else {
            candidate = Candidate(published: entry.published, id: entries.tagURI(entry.published, routes.report(entry.report).trimmingSlash)) {
                entries.reportEntry(entry.report)
            }
        }
        candidate.report = entry
        return candidate
    }

    func albumCandidate(_ album: AlbumModel) -> Candidate {
        albumCandidate(album.key, published: entries.albumDate(album)) { album }
    }

    /// An album known by its dates only: read whole when it makes the cut.
    func albumCandidate(_ album: GroupActivity.Album) -> Candidate {
        albumCandidate(album.key, published: entries.albumDate(album.date ?? album.created, photos: album.photos)) { view.album(album.key) }
    }

    private func albumCandidate(_ key: AlbumKey, published: Moment, album: @escaping () -> AlbumModel?) -> Candidate {
        Candidate(published: published, id: entries.tagURI(published, routes.album(key).trimmingSlash)) { entries.albumEntry(album()) }
    }

    func goalAddedCandidate(_ goal: GoalModel) -> Candidate? {
        guard let added = goal.added else { return nil }
        return Candidate(published: added, id: entries.tagURI(added, routes.goalEntry(goal.key))) { entries.goalAddedEntry(goal) ?? entries.missingEntry("goal \(goal.group)/\(goal.id)") }
    }

    func completionCandidate(_ goal: GoalModel) -> Candidate {
        completionCandidate(goal.key, at: goal.completedAt) { goal }
    }

    /// A completion known by its time only: the goal is read whole when it makes the cut.
    func completionCandidate(_ goal: GroupActivity.Completion) -> Candidate {
        completionCandidate(goal.key, at: goal.at) { view.goal(goal.key) }
    }

    private func completionCandidate(_ key: GoalKey, at: Moment?, goal: @escaping () -> GoalModel?) -> Candidate {
        let at = at ?? Moment(seconds: 0)
        return Candidate(published: at, id: entries.tagURI(at, routes.goalEntry(key) + "/completed")) { entries.completionEntry(goal()) }
    }

    func groupEventCandidate(_ event: GroupEventModel) -> Candidate {
        let published = entries.eventPublished(event)
        return Candidate(published: published, id: entries.tagURI(published, routes.groupEvent(event.key).trimmingSlash)) {
            entries.groupEventEntry(event)
        }
    }

    func joinedCandidate(_ member: String) -> Candidate? {
        guard let joined = view.joined(member) else { return nil }
        return Candidate(published: joined, id: entries.tagURI(joined, routes.member(member).trimmingSlash)) { entries.joinedEntry(member)! }
    }
}

/// The newest reports and replies the site's feed chooses among, in the order it chooses them,
/// as a build keeps them for the next (`FeedSelection.newestReports`): each one's time, report,
/// and for a reply its index and name; and whether there are more, older than all of these.
struct NewestReports {
    struct Entry {
        let published: Moment
        let report: String
        let reply: (index: Int, name: String)?
    }

    let entries: [Entry]
    let more: Bool

    init(_ chosen: [FeedSelection.Candidate], more: Bool) {
        entries = chosen.compactMap(\.report)
        self.more = more
    }

    /// The report whose times or replies the fact under `key` is (`Dependency.key`).
    static func report(changedBy key: String) -> String? {
        for prefix in [timesPrefix, repliesPrefix] where key.hasPrefix(prefix) { return String(key.dropFirst(prefix.count)) }
        return nil
    }

    private static let timesPrefix = Dependency.reportTimes("").key, repliesPrefix = Dependency.reportReplies("").key

    /// Whether there are more, then each entry: its time (as `Moment` encodes it), its reply's
    /// index (-1: the report itself), then its report and its reply's name, each ended by a NUL.
    var bytes: [UInt8] {
        var bytes: [UInt8] = [more ? 1 : 0]
        for entry in entries {
            KeptBytes.append(entry.published.seconds << 1 | (entry.published.isDateOnly ? 1 : 0), to: &bytes)
            KeptBytes.append(Int64(entry.reply?.index ?? -1), to: &bytes)
            bytes += entry.report.utf8
            bytes.append(0)
            bytes += (entry.reply?.name ?? "").utf8
            bytes.append(0)
        }
        return bytes
    }

    init?(bytes: [UInt8]) {
        guard let first = bytes.first, first <= 1 else { return nil }
        more = first == 1
        var entries: [Entry] = []
        var offset = 1
        func text() -> String? {
            guard let end = bytes[offset...].firstIndex(of: 0) else { return nil }
            defer { offset = end + 1 }
            return String(decoding: bytes[offset..<end], as: UTF8.self)
        }
        while offset < bytes.count {
            guard offset + 16 <= bytes.count else { return nil }
            let stamp = KeptBytes.read(Int64.self, bytes, at: offset), index = KeptBytes.read(Int64.self, bytes, at: offset + 8)
            offset += 16
            guard let report = text(), let name = text() else { return nil }
            entries.append(Entry(published: Moment(seconds: stamp >> 1, isDateOnly: stamp & 1 == 1), report: report,
                                 reply: index < 0 ? nil : (Int(index), name)))
        }
        self.entries = entries
    }
}
