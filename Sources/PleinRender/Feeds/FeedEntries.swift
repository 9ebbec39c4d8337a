import PleinText
import PleinModel
import Foundation
import PleinCore
import PleinMarkdown

/// Builds feeds from the model: which entries each feed holds and what each entry says.
extension Renderer {
    /// `tag:<host>,<date>:/<path>` — from the record's own date and id.
    func tagURI(_ date: Moment?, _ path: String) -> String {
        let day = date.map { site.clock.civil($0).isoDate } ?? "2000-01-01"
        return "tag:\(routes.host),\(day):/\(path)"
    }

    func person(_ member: String?) -> FeedEntry.Person? {
        guard let member, let m = memberModel(member) else { return nil }
        return .init(name: m.name, uri: routes.absolute(routes.member(member)))
    }

    func absoluteHTML(_ file: String) -> String {
        bodyOf(file)?.absoluteHTML ?? bodyOf(file)?.html ?? ""
    }

    /// An entry known by its date and id only, built when it makes the cut. The id is only
    /// needed to order entries published at the same moment, so it is made only then.
    struct Candidate {
        let published: Moment
        let id: () -> String
        let make: () -> FeedEntry

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
        func make(_ title: String, _ subtitle: String, atom: String, page: String, _ candidates: [Candidate]) -> Feed {
            let chosen = candidates.sorted { a, b in a.published != b.published ? a.published > b.published : a.id() < b.id() }.prefix(limit)
            return Feed(
                id: routes.absolute(atom), title: title, subtitle: subtitle, atomPath: atom, jsonPath: routes.jsonFeed(atom), pagePath: page,
                entries: chosen.map { $0.make() })
        }
        switch id {
        case .site:
            var entries = reportOrder.map { reportCandidate($0) }
            for rid in reportOrder { entries += reportModel(rid)!.replies.indices.map { replyCandidate(rid, $0) } }
            for gid in groupOrder where groupModel(gid)!.isListed {
                let g = groupModel(gid)!
                entries += g.albums.map(albumCandidate)
                entries += g.completedGoals.map(completionCandidate)
            }
            entries += memberOrder.compactMap(joinedCandidate)
            return make(strings.format("feed_site", ["site": site.title]), site.description,
                        atom: routes.siteFeed, page: routes.home, entries)
        case .area(let aid):
            let area = areaModel(aid)!
            return make(strings.format("feed_area", ["area": areaName(area)]),
                        strings.format("feed_area_subtitle", ["area": areaName(area)]),
                        atom: routes.areaFeed(aid), page: routes.area(aid),
                        area.reports.map { reportCandidate($0) })
        case .report(let rid):
            let r = reportModel(rid)!
            return make(strings.format("feed_report", ["title": r.title]), strings["feed_report_subtitle"],
                        atom: routes.reportFeed(rid), page: routes.report(rid),
                        r.replies.indices.map { replyCandidate(rid, $0) })
        case .group(let gid):
            let g = groupModel(gid)!
            // One entry per album, its photos inside: not one per photo.
            var entries = g.albums.map(albumCandidate)
            entries += (g.openGoals + g.completedGoals).compactMap(goalAddedCandidate)
            entries += g.completedGoals.map(completionCandidate)
            return make(strings.format("feed_group", ["group": g.name]), strings.format("feed_group_subtitle", ["group": g.name]),
                        atom: routes.groupFeed(gid), page: routes.group(gid), entries)
        case .member(let mid):
            let m = memberModel(mid)!
            var entries = m.reports.map { reportCandidate($0) }
            entries += m.replies.map { replyCandidate($0.report, $0.index) }
            entries += m.completedGoals.compactMap { goalModel($0) }.map(completionCandidate)
            for key in m.albums {
                guard let album = albumModel(key), album.by == mid || album.photos.contains(where: { $0.by == mid }) else { continue }
                entries.append(albumCandidate(album))
            }
            if let joined = joinedCandidate(mid) { entries.append(joined) }
            return make(strings.format("feed_member", ["name": m.name]), strings.format("feed_member_subtitle", ["name": m.name]),
                        atom: routes.memberFeed(mid), page: routes.member(mid), entries)
        case .following(let mid):
            let m = memberModel(mid)!
            var entries: [Candidate] = []
            for rid in m.follows { entries += reportModel(rid)!.replies.indices.map { replyCandidate(rid, $0) } }
            return make(strings.format("feed_following", ["name": m.name]), strings.format("feed_following_subtitle", ["name": m.name]),
                        atom: routes.followingFeed(mid), page: routes.member(mid), entries)
        }
    }

    func reportCandidate(_ id: String) -> Candidate {
        let r = reportModel(id)!
        return Candidate(published: r.at, id: tagURI(r.at, routes.report(id).trimmingSlash)) { reportEntry(id) }
    }

    func replyCandidate(_ report: String, _ index: Int) -> Candidate {
        let reply = reportModel(report)!.replies[index]
        return Candidate(published: reply.at, id: tagURI(reply.at, routes.report(report) + "replies/" + reply.name)) {
            replyEntry(report, index)
        }
    }

    func albumCandidate(_ album: AlbumModel) -> Candidate {
        let date = albumDate(album)
        return Candidate(published: date, id: tagURI(date, routes.album(album.key).trimmingSlash)) { albumEntry(album) }
    }

    func goalAddedCandidate(_ goal: GoalModel) -> Candidate? {
        guard let added = goal.added else { return nil }
        return Candidate(published: added, id: tagURI(added, routes.goalEntry(goal.key))) { goalAddedEntry(goal)! }
    }

    func completionCandidate(_ goal: GoalModel) -> Candidate {
        let at = goal.completedAt ?? Moment(seconds: 0)
        return Candidate(published: at, id: tagURI(at, routes.goalEntry(goal.key) + "/completed")) { completionEntry(goal) }
    }

    func joinedCandidate(_ member: String) -> Candidate? {
        guard let joined = memberModel(member)?.joined else { return nil }
        return Candidate(published: joined, id: tagURI(joined, routes.member(member).trimmingSlash)) { joinedEntry(member)! }
    }

    // MARK: Entries

    func reportEntry(_ id: String) -> FeedEntry {
        let r = reportModel(id)!
        let area = areaModel(r.area).map(areaName) ?? r.area
        let label = strings["category_\(r.category.rawValue)"]
        let head = "<p><strong>\(XML.escape(label))</strong> · \(XML.escape(area))</p>\n"
        return FeedEntry(
            id: tagURI(r.at, routes.report(id).trimmingSlash), title: r.title, published: r.at, updated: updated(r.at, r.revision),
            author: person(r.author), link: routes.absolute(routes.report(id)), content: head + absoluteHTML(r.file),
            summary: summary(bodyOf(r.file)?.text ?? "", limit: 240),
            categories: [.init(term: r.category.rawValue, label: label), .init(term: r.area, label: area)], inReplyTo: nil)
    }

    func replyEntry(_ report: String, _ index: Int) -> FeedEntry {
        let r = reportModel(report)!
        let reply = r.replies[index]
        let author = memberModel(reply.author)?.name ?? reply.author
        let link = routes.absolute(routes.report(report)) + "#" + reply.anchor
        let context = "<p>" + XML.escape(strings.format("feed_reply_context", ["title": r.title])) + "</p>\n"
        return FeedEntry(
            id: tagURI(reply.at, routes.report(report) + "replies/" + reply.name), title: strings.format("feed_reply_title", ["name": author, "title": r.title]),
            published: reply.at, updated: updated(reply.at, reply.revision), author: person(reply.author), link: link,
            content: context + absoluteHTML(reply.file), summary: summary(bodyOf(reply.file)?.text ?? "", limit: 240),
            categories: [.init(term: r.category.rawValue, label: strings["category_\(r.category.rawValue)"])],
            inReplyTo: (tagURI(r.at, routes.report(report).trimmingSlash), routes.absolute(routes.report(report))))
    }

    /// A photo's alternative text: its caption, else what it is and who took it.
    func photoAlt(_ album: AlbumModel, _ index: Int) -> String {
        let photo = album.photos[index]
        if let caption = photo.caption { return caption }
        let what = strings.format("photo_number", ["n": String(index + 1), "album": album.title])
        guard let by = photo.by.flatMap(memberModel) else { return what }
        return what + ", " + strings["photo_by"].lowercased() + " " + by.name
    }

    /// An entry's `updated`: the last commit that edited its file, when later than `published`
    /// (RFC 4287: `published` stays the record's own time).
    func updated(_ published: Moment, _ revision: Revision?) -> Moment {
        guard let edited = revision?.edited, edited > published else { return published }
        return edited
    }

    /// An album's date: its `date`, else when its file was first committed, else its newest
    /// photo's capture time, else a fixed date.
    func albumDate(_ album: AlbumModel) -> Moment {
        album.date ?? album.revision?.created ?? album.photos.compactMap { imageOf($0.path)?.info.takenAt }.max().map { Moment(seconds: $0) }
            ?? Moment(seconds: 946_684_800)
    }

    func albumEntry(_ album: AlbumModel) -> FeedEntry {
        let g = groupModel(album.group)!
        var html = absoluteHTML(album.file)
        html += "\n<p>" + XML.escape(strings.count("photo_count", album.photos.count)) + "</p>"
        for (index, photo) in album.photos.enumerated().prefix(24) {
            guard let image = imageOf(photo.path) else { continue }
            let thumb = image.variants.first ?? image.display
            html += "\n<a href=\"\(XML.escape(routes.absolute(routes.photo(album.key, photo.slug))))\"><img src=\"\(XML.escape(routes.absolute(thumb.path)))\" alt=\"\(XML.escape(photoAlt(album, index)))\"\(thumb.width > 0 ? " width=\"\(thumb.width)\" height=\"\(thumb.height)\"" : "")></a>"
        }
        let date = albumDate(album)
        let by = album.by
        return FeedEntry(
            id: tagURI(date, routes.album(album.key).trimmingSlash), title: strings.format("feed_album_title", ["title": album.title]),
            published: date, updated: updated(date, album.revision), author: person(by), link: routes.absolute(routes.album(album.key)),
            content: html, summary: summary(bodyOf(album.file)?.text ?? "", limit: 240),
            categories: [.init(term: g.id, label: g.name)], inReplyTo: nil)
    }

    func goalAddedEntry(_ goal: GoalModel) -> FeedEntry? {
        guard let added = goal.added else { return nil }
        let g = groupModel(goal.group)!
        let points = "<p>" + XML.escape(strings.count("points_count", goal.points)) + "</p>\n"
        return FeedEntry(
            id: tagURI(added, routes.goalEntry(goal.key)), title: strings.format("feed_goal_title", ["title": goal.title]),
            published: added, updated: updated(added, goal.revision), author: person(goal.addedBy),
            link: routes.absolute(routes.group(goal.group)) + "#goal-\(goal.id)", content: points + absoluteHTML(goal.file),
            summary: nil, categories: [.init(term: g.id, label: g.name)], inReplyTo: nil)
    }

    func completionEntry(_ goal: GoalModel) -> FeedEntry {
        let g = groupModel(goal.group)!
        let at = goal.completedAt ?? Moment(seconds: 0)
        let name = goal.completedBy.flatMap { memberModel($0)?.name } ?? ""
        let text = strings.format("feed_completion_text", [
            "name": name, "title": goal.title, "points": strings.count("points_count", goal.points), "group": g.name,
        ])
        return FeedEntry(
            id: tagURI(at, routes.goalEntry(goal.key) + "/completed"),
            title: strings.format("feed_completion_title", ["name": name, "title": goal.title]),
            published: at, updated: at, author: person(goal.completedBy),
            link: routes.absolute(routes.group(goal.group)) + "#goal-\(goal.id)", content: "<p>\(XML.escape(text))</p>",
            summary: nil, categories: [.init(term: g.id, label: g.name)], inReplyTo: nil)
    }

    func joinedEntry(_ member: String) -> FeedEntry? {
        guard let m = memberModel(member), let joined = m.joined else { return nil }
        return FeedEntry(
            id: tagURI(joined, routes.member(member).trimmingSlash), title: strings.format("feed_joined_title", ["name": m.name]),
            published: joined, updated: joined, author: person(member), link: routes.absolute(routes.member(member)),
            content: absoluteHTML(m.file), summary: summary(bodyOf(m.file)?.text ?? "", limit: 240), categories: [], inReplyTo: nil)
    }
}

extension String {
    var trimmingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
