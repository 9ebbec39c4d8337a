public import PleinCore
/// Builds the `SiteModel` from checked content.
public enum ModelBuilder {
    /// - Parameter captureTimes: when each photo was taken (from EXIF), by content path: photos
    ///   an album's list leaves out follow in this order.
    ///   - history: when each file was committed (an empty history outside a repository).
    ///   - now: the time of the build, whose day in the site's zone divides upcoming events from past ones.
    ///   - sealed: the members-only groups that have a key (the others are not published).
    public static func build(_ content: Content, captureTimes: [String: Moment] = [:], history: History = History(), now: Moment? = nil,
                             sealed: Set<String> = []) -> SiteModel {
        let index = content.memberIndex
        let site = content.site
        func id(_ ref: Located<String>?) -> String? { ref.flatMap { index.resolve($0.value) } }

        // Members, without e-mail and with a coarse home.
        var members: [String: MemberModel] = [:]
        let places = Dictionary(content.places.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for m in content.members { members[m.id] = member(m, content: content, places: places) }
        let names = members.mapValues { $0.name.lowercased() }
        let byName: (String, String) -> Bool = { a, b in
            let (na, nb) = (names[a] ?? a, names[b] ?? b)
            return na != nb ? na < nb : a < b
        }
        for id in members.keys {
            members[id]!.friends.sort(by: byName)
        }
        // Those who left keep their page, out of the lists (`memberOrder`).
        let memberOrder = members.keys.filter { members[$0]!.left == nil }.sorted(by: byName)
        let formerMembers = members.keys.filter { members[$0]!.left != nil }.sorted(by: byName)

        // Groups: private ones and groups without members are not published at all.
        let publication = Publication(content, sealed: sealed)
        var groups: [String: GroupModel] = [:]
        var everMembers: [String: [String]] = [:]
        for g in content.groups where publication.groups.contains(g.id) {
            let ids = unique(g.members.compactMap { id($0) }).sorted(by: byName)
            everMembers[g.id] = ids
            groups[g.id] = GroupModel(
                id: g.id, file: g.file, name: g.name, visibility: g.visibility, members: ids.filter { members[$0]?.left == nil },
                createdBy: id(g.createdBy), body: g.body)
        }
        for a in content.albums where groups[a.group] != nil {
            groups[a.group]!.albums.append(album(a, captureTimes: captureTimes, resolve: { index.resolve($0) }))
        }
        for goal in content.goals where groups[goal.group] != nil {
            let model = self.goal(goal, index: index)
            if model.completedBy != nil {
                groups[goal.group]!.completedGoals.append(model)
            } else {
                groups[goal.group]!.openGoals.append(model)
            }
        }
        for e in content.events where groups[e.group] != nil {
            groups[e.group]!.events.append(event(e, places: places, index: index))
        }
        for gid in groups.keys {
            groups[gid]!.events.sort(by: GroupEventModel.byStart)
            groups[gid]!.albums.sort(by: AlbumModel.newestFirst)
            groups[gid]!.completedGoals.sort(by: GoalModel.newestFirst)
            groups[gid]!.openGoals.sort(by: GoalModel.byPointsThenTitle)
            groups[gid]!.leaderboard = Leaderboard.standings(groups[gid]!, byName: byName)
        }
        let groupOrder = groups.keys.sorted { a, b in
            let (na, nb) = (groups[a]!.name.lowercased(), groups[b]!.name.lowercased())
            return na != nb ? na < nb : a < b
        }

        // Reports and areas.
        var reports: [String: ReportModel] = [:]
        for r in content.reports { reports[r.id] = report(r, index: index) }
        let reportOrder = reports.keys.sorted { a, b in
            let (ta, tb) = (reports[a]!.at, reports[b]!.at)
            return ta != tb ? ta > tb : a < b
        }
        var areas = content.areas.map {
            AreaModel(id: $0.id, file: $0.file, name: $0.name, center: $0.center, boundary: $0.boundary)
        }
        let areaIndex = Dictionary(areas.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        for rid in reportOrder {
            if let i = areaIndex[reports[rid]!.area] { areas[i].reports.append(rid) }
        }

        // What each member did, for profiles.
        for mid in members.keys {
            members[mid]!.follows = members[mid]!.follows.filter { reports[$0] != nil }
        }
        var followers: [String: [String]] = [:]
        for member in members.values {
            for rid in member.follows { followers[rid, default: []].append(member.id) }
        }
        for (rid, ids) in followers where reports[rid] != nil {
            reports[rid]!.followers = ids.sorted()
        }
        for rid in reportOrder {
            let report = reports[rid]!
            members[report.author]?.reports.append(rid)
            for (i, reply) in report.replies.enumerated() {
                members[reply.author]?.replies.append(ReplyRef(report: rid, index: i))
            }
        }
        for mid in members.keys {
            members[mid]!.replies.sort { a, b in
                let (ta, tb) = (reports[a.report]!.replies[a.index].at, reports[b.report]!.replies[b.index].at)
                return ta != tb ? ta > tb : (a.report, a.index) < (b.report, b.index)
            }
        }
        for gid in groupOrder where groups[gid]!.isListed {
            let group = groups[gid]!
            // A former member's page still names the groups they were in.
            for mid in everMembers[gid] ?? group.members { members[mid]?.groups.append(gid) }
            for album in group.albums {
                for by in Set(album.photos.compactMap(\.by)) { members[by]?.albums.append(album.key) }
            }
            for goal in group.completedGoals {
                if let by = goal.completedBy { members[by]?.completedGoals.append(goal.key) }
            }
        }
        let albumsByKey = Dictionary(groups.values.flatMap(\.albums).map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let goalsByKey = Dictionary(groups.values.flatMap(\.completedGoals).map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        for mid in members.keys {
            members[mid]!.albums.sort { AlbumModel.newestFirst(albumsByKey[$0]!, albumsByKey[$1]!) }
            members[mid]!.completedGoals.sort { GoalModel.newestFirst(goalsByKey[$0]!, goalsByKey[$1]!) }
        }

        // Study places.
        let (sessions, asOf) = Self.sessions(content, members: members)
        var locations = content.locations.map {
            LocationModel(id: $0.id, file: $0.file, place: $0.place, body: $0.body)
        }
        for i in locations.indices { locations[i].present = present(at: locations[i].id, sessions, byName: byName) }

        // Each record's history, from its file.
        if !history.files.isEmpty {
            for id in members.keys { members[id]!.revision = history.revision(of: members[id]!.file) }
            for gid in groups.keys {
                groups[gid]!.revision = history.revision(of: groups[gid]!.file)
                for i in groups[gid]!.albums.indices { groups[gid]!.albums[i].revision = history.revision(of: groups[gid]!.albums[i].file) }
                for i in groups[gid]!.events.indices { groups[gid]!.events[i].revision = history.revision(of: groups[gid]!.events[i].file) }
                for i in groups[gid]!.openGoals.indices { groups[gid]!.openGoals[i].revision = history.revision(of: groups[gid]!.openGoals[i].file) }
                for i in groups[gid]!.completedGoals.indices {
                    groups[gid]!.completedGoals[i].revision = history.revision(of: groups[gid]!.completedGoals[i].file)
                }
            }
            for rid in reports.keys {
                reports[rid]!.revision = history.revision(of: reports[rid]!.file)
                for i in reports[rid]!.replies.indices { reports[rid]!.replies[i].revision = history.revision(of: reports[rid]!.replies[i].file) }
            }
            for i in locations.indices { locations[i].revision = history.revision(of: locations[i].file) }
        }
        let pages = self.pages(content, history: history)
        let threads = content.threads.map { thread($0, index: index) }

        var model = SiteModel(
            site: site, members: members, memberOrder: memberOrder, groups: groups, groupOrder: groupOrder,
            areas: areas, reports: reports, reportOrder: reportOrder, locations: locations, sessions: sessions,
            asOf: asOf, threads: threads, places: content.places)
        model.today = now.map { site.clock.civil($0).isoDate }
        model.pages = pages
        model.formerMembers = formerMembers
        return model
    }

    /// A member as pages show it, without what they did (their reports, replies, groups, albums
    /// and goals, which `build` adds) and with their friends in the order of their file.
    static func member(_ m: Member, content: Content, places: [String: Place]) -> MemberModel {
        let site = content.site
        let exact = m.home?.coordinate { places[$0]?.coordinate }
        let coarse = exact.map { Privacy.coarsen($0, km: site.locationPrecisionKm) }
        var model = MemberModel(
            id: m.id, file: m.file, name: m.name, avatar: m.avatar.map { ContentLayout.avatar($0.value) }, joined: m.joined,
            home: coarse, nearPlace: coarse.flatMap { nearestPlace(to: $0, in: content.places) },
            postcode: m.postcode, diving: site.has(.divers) ? m.diving : nil, bio: m.body)
        model.friends = unique(m.friends.compactMap { content.memberIndex.resolve($0.value) }.filter { $0 != m.id })
        model.follows = unique(m.follows.map(\.value))
        model.left = m.left
        return model
    }

    /// A goal as pages show it.
    static func goal(_ goal: Goal, index: MemberIndex) -> GoalModel {
        func id(_ ref: Located<String>?) -> String? { ref.flatMap { index.resolve($0.value) } }
        var model = GoalModel(
            group: goal.group, id: goal.id, file: goal.file, title: goal.title, points: goal.points,
            addedBy: id(goal.addedBy), added: goal.added,
            completedBy: goal.completedAt == nil ? nil : id(goal.completedBy),
            completedAt: goal.completedBy == nil ? nil : goal.completedAt, body: goal.body)
        if let target = goal.target {
            model.target = target
            model.unit = goal.unit
            var counts: [String: Int] = [:]
            for entry in goal.tally { if let by = id(entry.by) { counts[by, default: 0] += entry.count } }
            model.contributions = counts.map { GoalModel.Contribution(member: $0.key, count: $0.value) }
                .sorted { a, b in a.count != b.count ? a.count > b.count : a.member < b.member }
        }
        return model
    }

    /// A group's event as pages show it.
    static func event(_ e: GroupEvent, places: [String: Place], index: MemberIndex) -> GroupEventModel {
        GroupEventModel(
            group: e.group, id: e.id, file: e.file, title: e.title, starts: e.starts, ends: e.ends, place: e.place,
            location: e.place.flatMap { places[$0]?.coordinate }, by: e.by.flatMap { index.resolve($0.value) }, body: e.body)
    }

    /// Every session of a member the model has, and the latest check-in or check-out.
    static func sessions(_ content: Content, members: [String: MemberModel]) -> (sessions: [Session], asOf: Moment?) {
        let sessions = content.checkIns.filter { members[$0.member] != nil }.map {
            Session(member: $0.member, location: $0.location.value, start: $0.checkIn, end: $0.checkOut)
        }
        return (sessions, content.checkIns.flatMap { [$0.checkIn, $0.checkOut].compactMap { $0 } }.max())
    }

    /// The members checked in at a location, by name.
    static func present(at location: String, _ sessions: [Session], byName: (String, String) -> Bool) -> [String] {
        unique(sessions.filter { $0.location == location && $0.end == nil }.map(\.member)).sorted(by: byName)
    }

    /// The site's own pages in menu order, each with its history.
    static func pages(_ content: Content, history: History) -> [PageModel] {
        var pages = content.pages.map {
            PageModel(id: $0.id, file: $0.file, title: $0.title, description: $0.description,
                      menuTitle: $0.menu ? ($0.menuTitle ?? $0.title) : nil, order: $0.order, body: $0.body)
        }.sorted(by: PageModel.inOrder)
        if !history.files.isEmpty { for i in pages.indices { pages[i].revision = history.revision(of: pages[i].file) } }
        return pages
    }

    /// A thread as its page shows it.
    static func thread(_ t: Thread, index: MemberIndex) -> ThreadModel {
        ThreadModel(
            id: t.id, file: t.file, subject: t.subject,
            participants: unique(t.participants.compactMap { index.resolve($0.value) }),
            messages: t.messages.map {
                MessageModel(name: $0.name, file: $0.file, author: index.resolve($0.author.value) ?? $0.author.value, at: $0.at, body: $0.body)
            })
    }

    /// A report as pages show it (its followers and history are added by `build`).
    static func report(_ r: Report, index: MemberIndex) -> ReportModel {
        func id(_ ref: Located<String>) -> String { index.resolve(ref.value) ?? ref.value }
        let replies = r.replies.map { ReplyModel(name: $0.name, file: $0.file, author: id($0.author), at: $0.at, body: $0.body) }
        var report = ReportModel(
            id: r.id, area: r.area, slug: r.slug, file: r.file, title: r.title, category: r.category, at: r.at,
            author: id(r.author), location: r.location, body: r.body, replies: replies, resources: r.resources)
        report.starts = r.starts
        report.ends = r.ends
        report.place = r.place
        return report
    }

    /// A report's model made again from its record after an edit, in a model where it was `old`:
    /// nil when the edit changed what other parts of the model read of it: its time, its author,
    /// its replies' authors and times, whether it is an event (orders, members' lists, calendars).
    public static func remade(_ r: Report, old: ReportModel, index: MemberIndex, revision: (String) -> Revision?) -> ReportModel? {
        var new = report(r, index: index)
        guard new.at == old.at, new.author == old.author, (new.starts == nil) == (old.starts == nil),
              new.replies.map({ [$0.author, $0.name] }) == old.replies.map({ [$0.author, $0.name] }),
              new.replies.map(\.at) == old.replies.map(\.at) else { return nil }
        new.followers = old.followers
        new.revision = revision(new.file)
        for i in new.replies.indices { new.replies[i].revision = revision(new.replies[i].file) }
        return new
    }

    /// An album's photos in display order: listed entries first, then the remaining files.
    static func album(_ a: Album, captureTimes: [String: Moment], resolve: (String) -> String?) -> AlbumModel {
        var photos: [PhotoModel] = []
        var used: Set<String> = []
        let slugs = PhotoName.slugs(a.imageFiles)
        for entry in a.entries where a.imageFiles.contains(entry.file.value) && !used.contains(entry.file.value) {
            used.insert(entry.file.value)
            photos.append(PhotoModel(
                file: entry.file.value, path: "\(a.folder)/\(entry.file.value)", slug: slugs[entry.file.value] ?? PhotoName.slug(entry.file.value),
                caption: entry.caption, by: entry.by.flatMap { resolve($0.value) }))
        }
        let rest = a.imageFiles.filter { !used.contains($0) }.sorted { x, y in
            let (tx, ty) = (captureTimes["\(a.folder)/\(x)"]?.seconds ?? .max, captureTimes["\(a.folder)/\(y)"]?.seconds ?? .max)
            return tx != ty ? tx < ty : x < y
        }
        for file in rest {
            photos.append(PhotoModel(file: file, path: "\(a.folder)/\(file)", slug: slugs[file] ?? PhotoName.slug(file), caption: nil, by: nil))
        }
        let cover = a.cover.flatMap { c in photos.firstIndex { $0.file == c.value } } ?? (photos.isEmpty ? nil : 0)
        var album = AlbumModel(
            group: a.group, id: a.id, file: a.file, title: a.title, date: a.date, by: a.by.flatMap { resolve($0.value) }, body: a.body, photos: photos,
            coverIndex: cover)
        album.map = a.map
        return album
    }
}

/// The place closest to `point` within 25 km, by name on ties.
func nearestPlace(to point: Coordinate, in places: [Place]) -> String? {
    var best: (distance: Double, name: String)?
    for place in places {
        let d = distanceKm(point, place.coordinate)
        guard d <= 25 else { continue }
        if let current = best, current.distance < d || (current.distance == d && current.name < place.name) { continue }
        best = (d, place.name)
    }
    return best?.name
}

func unique(_ values: [String]) -> [String] {
    var seen: Set<String> = []
    return values.filter { seen.insert($0).inserted }
}

/// Points per member in a group: only the completer of a goal earns its points.
public enum Leaderboard {
    public static func standings(_ group: GroupModel, byName: (String, String) -> Bool) -> [Standing] {
        var points: [String: Int] = [:]
        var goals: [String: Int] = [:]
        for member in group.members {
            points[member] = 0
            goals[member] = 0
        }
        for goal in group.completedGoals {
            guard let by = goal.completedBy, points[by] != nil else { continue }
            points[by]! += goal.points
            goals[by]! += 1
        }
        let order = group.members.sorted { a, b in
            points[a]! != points[b]! ? points[a]! > points[b]! : byName(a, b)
        }
        var result: [Standing] = []
        for (i, member) in order.enumerated() {
            let rank = i > 0 && points[order[i - 1]] == points[member] ? result[i - 1].rank : i + 1
            result.append(Standing(member: member, points: points[member]!, goals: goals[member]!, rank: rank))
        }
        return result
    }
}
