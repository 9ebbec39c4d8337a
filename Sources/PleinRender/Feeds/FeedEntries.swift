import PleinText
import PleinCore
import PleinMarkdown
import PleinModel

/// What each feed entry says: a report, a reply, an album, a goal added or completed, a member
/// who joined. Ids are tag URIs from the record's own date and path, so they never change.
struct FeedEntries: Rendering {
    let inputs: RenderInputs

    /// `tag:<host>,<date>:/<path>` — from the record's own date and id.
    func tagURI(_ date: Moment?, _ path: String) -> String {
        let day = date.map { site.clock.civil($0).isoDate } ?? "2000-01-01"
        return "tag:\(routes.host),\(day):/\(path)"
    }

    func person(_ member: String?) -> FeedEntry.Person? {
        guard let member, let m = view.card(member) else { return nil }
        return .init(name: m.name, uri: routes.absolute(routes.member(member)))
    }

    func absoluteHTML(_ file: String) -> TrustedHTML {
        view.body(file)?.absoluteHTML ?? view.body(file)?.html ?? .empty
    }

    /// `<p><strong>label</strong>separator text</p>` and a line break.
    func labelled(_ label: String, _ separator: String, _ text: String) -> TrustedHTML {
        var p = MarkupWriter(capacity: 128)
        p.open("p")
        p.element("strong", text: label)
        p.text(separator + text)
        p.close("p")
        p.append(literal: "\n")
        return p.html
    }


    /// The entry of a record the model could not give (`ModelView.miss`): empty, and noted.
    func missingEntry(_ what: String) -> FeedEntry {
        view.miss(what, FeedEntry(id: "missing:" + what, title: what, published: Moment(seconds: 0), updated: Moment(seconds: 0), author: nil,
                                  link: "", content: FeedEntry.paragraph(""), summary: nil, categories: [], inReplyTo: nil))
    }

    func reportEntry(_ id: String) -> FeedEntry {
        guard let r = view.report(id) else { return missingEntry("report \(id)") }
        let area = names.area(id: r.area)
        let label = strings["category_\(r.category.rawValue)"]
        var head = labelled(label, " · ", area)
        var text = summary(of: r.file, limit: 240)
        if let starts = r.starts {
            let when = eventWhen(starts: starts, ends: r.ends) + (r.place.map { " · " + $0 } ?? "")
            head = head + labelled(strings["event_when"], " ", when)
            text = when + (text.isEmpty ? "" : " — " + text)
        }
        return FeedEntry(
            id: tagURI(r.at, routes.report(id).trimmingSlash), title: r.title, published: r.at, updated: updated(r.at, r.revision),
            author: person(r.author), link: routes.absolute(routes.report(id)), content: head + absoluteHTML(r.file),
            summary: text,
            categories: [.init(term: r.category.rawValue, label: label), .init(term: r.area, label: area)], inReplyTo: nil)
    }

    func replyEntry(_ report: String, _ index: Int) -> FeedEntry {
        guard let r = view.report(report), r.replies.indices.contains(index) else { return missingEntry("report \(report)") }
        let reply = r.replies[index]
        let author = view.card(reply.author)?.name ?? reply.author
        let link = routes.absolute(routes.report(report)) + "#" + reply.anchor
        let context = FeedEntry.paragraph(strings.format("feed_reply_context", ["title": r.title]), lineBreak: true)
        return FeedEntry(
            id: tagURI(reply.at, routes.report(report) + "replies/" + reply.name), title: strings.format("feed_reply_title", ["name": author, "title": r.title]),
            published: reply.at, updated: updated(reply.at, reply.revision), author: person(reply.author), link: link,
            content: context + absoluteHTML(reply.file), summary: summary(of: reply.file, limit: 240),
            categories: [.init(term: r.category.rawValue, label: strings["category_\(r.category.rawValue)"])],
            inReplyTo: (tagURI(r.at, routes.report(report).trimmingSlash), routes.absolute(routes.report(report))))
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
        albumDate(album.date ?? album.revision?.created, photos: album.photos.map(\.path))
    }

    /// An album's date in feeds: its own, else when it was first committed, else when its
    /// newest photo was taken (`photos`: their paths), else 2000-01-01.
    func albumDate(_ date: Moment?, photos: [String]) -> Moment {
        date ?? photos.compactMap { view.image($0)?.info.takenAt }.max().map { Moment(seconds: $0) } ?? Moment(seconds: 946_684_800)
    }

    func albumEntry(_ album: AlbumModel?) -> FeedEntry {
        guard let album, let g = view.group(album.group) else { return missingEntry("album \(album?.group ?? "")/\(album?.id ?? "")") }
        var html = MarkupWriter(capacity: 4096)
        html.append(absoluteHTML(album.file))
        html.append(literal: "\n")
        html.element("p", text: names.itemCount(album))
        for (index, photo) in album.photos.enumerated().prefix(24) {
            let page = routes.absolute(routes.photo(album.key, photo.slug))
            if let image = view.image(photo.path) {
                let thumb = image.variants.first ?? image.display
                var attributes: [MarkupWriter.Attribute] = [.init("src", routes.absolute(thumb.path)), .init("alt", names.photoAlt(album, index))]
                if thumb.width > 0 { attributes += [.init("width", String(thumb.width)), .init("height", String(thumb.height))] }
                html.append(literal: "\n")
                html.open("a", .init("href", page))
                html.empty("img", attributes: attributes, void: true)
                html.close("a")
            }
            // A video is named as one, with its length: the poster alone reads as a photo.
            if let video = view.video(photo.path) {
                let label = video.duration > 0 ? strings.format("video_feed", ["duration": video.durationText]) : strings["video"]
                html.append(literal: "\n")
                html.open("p")
                html.element("a", .init("href", page), text: label)
                html.close("p")
            }
        }
        let date = albumDate(album)
        let by = album.by
        return FeedEntry(
            id: tagURI(date, routes.album(album.key).trimmingSlash), title: strings.format("feed_album_title", ["title": album.title]),
            published: date, updated: updated(date, album.revision), author: person(by), link: routes.absolute(routes.album(album.key)),
            content: html.html, summary: summary(of: album.file, limit: 240),
            categories: [.init(term: g.id, label: g.name)], inReplyTo: nil)
    }

    func goalAddedEntry(_ goal: GoalModel) -> FeedEntry? {
        guard let added = goal.added else { return nil }
        guard let g = view.group(goal.group) else { return missingEntry("group \(goal.group)") }
        let points = FeedEntry.paragraph(strings.count("points_count", goal.points), lineBreak: true)
        return FeedEntry(
            id: tagURI(added, routes.goalEntry(goal.key)), title: strings.format("feed_goal_title", ["title": goal.title]),
            published: added, updated: updated(added, goal.revision), author: person(goal.addedBy),
            link: routes.absolute(routes.group(goal.group)) + "#goal-\(goal.id)", content: points + absoluteHTML(goal.file),
            summary: nil, categories: [.init(term: g.id, label: g.name)], inReplyTo: nil)
    }

    func completionEntry(_ goal: GoalModel?) -> FeedEntry {
        guard let goal, let g = view.group(goal.group) else { return missingEntry("goal \(goal?.group ?? "")/\(goal?.id ?? "")") }
        let at = goal.completedAt ?? Moment(seconds: 0)
        let name = goal.completedBy.flatMap { view.card($0)?.name } ?? ""
        let text = strings.format("feed_completion_text", [
            "name": name, "title": goal.title, "points": strings.count("points_count", goal.points), "group": g.name,
        ])
        return FeedEntry(
            id: tagURI(at, routes.goalEntry(goal.key) + "/completed"),
            title: strings.format("feed_completion_title", ["name": name, "title": goal.title]),
            published: at, updated: at, author: person(goal.completedBy),
            link: routes.absolute(routes.group(goal.group)) + "#goal-\(goal.id)", content: FeedEntry.paragraph(text),
            summary: nil, categories: [.init(term: g.id, label: g.name)], inReplyTo: nil)
    }

    /// When a group's event was published: when its file was first committed, else its start.
    func eventPublished(_ event: GroupEventModel) -> Moment { event.revision?.created ?? event.starts }

    func groupEventEntry(_ event: GroupEventModel) -> FeedEntry {
        guard let g = view.group(event.group) else { return missingEntry("group \(event.group)") }
        let published = eventPublished(event)
        let when = eventWhen(starts: event.starts, ends: event.ends) + (event.place.map { " · " + $0 } ?? "")
        let head = labelled(strings["event_when"], " ", when)
        let text = summary(of: event.file, limit: 240)
        return FeedEntry(
            id: tagURI(published, routes.groupEvent(event.key).trimmingSlash), title: strings.format("feed_event_title", ["title": event.title]),
            published: published, updated: updated(published, event.revision), author: person(event.by),
            link: routes.absolute(routes.groupEvent(event.key)), content: head + absoluteHTML(event.file),
            summary: when + (text.isEmpty ? "" : " — " + text), categories: [.init(term: g.id, label: g.name)], inReplyTo: nil)
    }

    func joinedEntry(_ member: String) -> FeedEntry? {
        guard let m = view.member(member), let joined = m.joined else { return nil }
        return FeedEntry(
            id: tagURI(joined, routes.member(member).trimmingSlash), title: strings.format("feed_joined_title", ["name": m.name]),
            published: joined, updated: joined, author: person(member), link: routes.absolute(routes.member(member)),
            content: absoluteHTML(m.file), summary: summary(of: m.file, limit: 240), categories: [], inReplyTo: nil)
    }
}

extension String {
    var trimmingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
