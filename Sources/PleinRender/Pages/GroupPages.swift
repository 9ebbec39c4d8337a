import PleinText
import PleinModel
import PleinMarkdown
import Foundation
import PleinCore
import PleinMustache

extension Renderer {
    /// `/groups/`: the listed groups by name. Unlisted groups are left out on purpose.
    func groupList() -> Page {
        let groups = groupOrder.compactMap { groupModel($0) }.filter(\.isListed).map { g -> TemplateContext in
            var c: TemplateContext = [
                "name": .text(g.name),
                "url": .text(routes.url(routes.group(g.id))),
                "summary": .text(summary(bodyOf(g.file)?.text ?? "", limit: 180)),
                "members": .text(strings.count("member_count", g.members.count)),
                "albums": .text(strings.count("album_count", g.albums.count)),
                "goals": .text(strings.count("open_goal_count", g.openGoals.count)),
                "people": .list(g.members.prefix(6).map { memberLink($0) }),
            ]
            if let cover = g.albums.first?.cover, let image = imageOf(cover.path) {
                c["cover"] = .object(imageContext(image, alt: "", sizes: "(min-width: 60rem) 22rem, 100vw"))
            }
            return c
        }
        var page = Page(
            template: "groups", path: routes.groups, title: strings["groups_title"],
            description: strings.format("groups_description", ["site": site.title]), section: .groups)
        page.context = ["groups": .list(groups)]
        page.feeds = [siteFeedLink]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }

    /// `/groups/<id>/`: members, albums, goals and the top of the leaderboard.
    func groupPage(_ id: String) -> Page {
        let g = groupModel(id)!
        var c: TemplateContext = [
            "name": .text(g.name),
            "members": .list(g.members.map { memberLink($0) }),
            "member_count": .text(strings.count("member_count", g.members.count)),
            "albums": .list(g.albums.map(albumCard)),
            "open_goals": .list(g.openGoals.map(goalContext)),
            "completed_goals": .list(g.completedGoals.map(goalContext)),
            "leaderboard": .list(g.leaderboard.prefix(5).map(standingContext)),
            "leaderboard_url": .text(routes.url(routes.leaderboard(id))),
            "feed_url": .text(routes.url(routes.groupFeed(id))),
            "unlisted": .flag(!g.isListed),
        ]
        if let html = bodyOf(g.file)?.html, !html.isEmpty { c["body"] = .html(html) }
        if let creator = g.createdBy { c["created_by"] = .object(memberLink(creator)) }
        var page = Page(
            template: "group", path: routes.group(id), title: g.name,
            description: summary(bodyOf(g.file)?.text ?? g.name, limit: 200), section: .groups, context: ["group": .object(c)])
        page.noindex = !g.isListed
        if let cover = g.albums.first?.cover, let image = imageOf(cover.path) { page.image = (image.preview ?? image.display).path }
        page.feeds = [groupFeedLink(g)]
        page.source = g.file
        page.breadcrumbs = [(strings["nav_home"], routes.home)] + (g.isListed ? [(strings["nav_groups"], routes.groups)] : [])
        return page
    }

    func groupFeedLink(_ g: GroupModel) -> Page.Feed {
        Page.Feed(title: strings.format("feed_group", ["group": g.name]), path: routes.groupFeed(g.id), type: "application/atom+xml")
    }

    func standingContext(_ s: Standing) -> TemplateContext {
        [
            "rank": .text(strings.number(s.rank)),
            "leader": .flag(s.rank == 1 && s.points > 0),
            "member": .object(memberLink(s.member)),
            "points": .text(strings.number(s.points)),
            "goals": .text(strings.number(s.goals)),
        ]
    }

    /// Completions of a group oldest first, with each member's running total.
    func completionHistory(_ g: GroupModel) -> [(goal: GoalModel, member: String, total: Int)] {
        var totals: [String: Int] = [:]
        return g.completedGoals.sorted { ($0.completedAt!, $0.id) < ($1.completedAt!, $1.id) }.compactMap { goal in
            guard let by = goal.completedBy else { return nil }
            totals[by, default: 0] += goal.points
            return (goal, by, totals[by]!)
        }
    }

    /// `/groups/<id>/leaderboard/`: everyone in the group by points, and points over time.
    func leaderboardPage(_ id: String) -> Page {
        let g = groupModel(id)!
        let history = completionHistory(g)
        var page = Page(
            template: "leaderboard", path: routes.leaderboard(id), title: strings.format("leaderboard_title", ["group": g.name]),
            description: strings.format("leaderboard_description", ["group": g.name]), section: .groups)
        page.context = [
            "group": .text(g.name),
            "group_url": .text(routes.url(routes.group(id))),
            "standings": .list(g.leaderboard.map(standingContext)),
            "json_url": .text(routes.url(routes.leaderboardJSON(id))),
            "history": .list(history.map { entry in
                [
                    "date": time(entry.goal.completedAt),
                    "member": .object(memberLink(entry.member)),
                    "goal": .text(entry.goal.title),
                    "points": .text(strings.number(entry.goal.points)),
                    "total": .text(strings.number(entry.total)),
                ]
            }),
        ]
        if let first = history.first?.goal.completedAt, let last = history.last?.goal.completedAt {
            let scorers = g.leaderboard.filter { $0.points > 0 }
            let series = scorers.enumerated().map { i, standing in
                Charts.Series(
                    name: memberModel(standing.member)?.name ?? standing.member, color: Charts.palette[i % Charts.palette.count],
                    points: history.filter { $0.member == standing.member }.map { entry in
                        (entry.goal.completedAt!, Double(entry.total),
                         strings.format("chart_completion", [
                            "name": memberModel(entry.member)?.name ?? entry.member, "goal": entry.goal.title,
                            "total": strings.count("points_count", entry.total),
                         ]))
                    })
            }
            let leader = g.leaderboard.first.map { memberModel($0.member)?.name ?? $0.member } ?? ""
            let description = strings.format("chart_points_description", [
                "n": strings.number(scorers.count), "leader": leader,
                "points": strings.count("points_count", g.leaderboard.first?.points ?? 0),
            ])
            let end = Moment(seconds: last.seconds + max(86_400, (last.seconds - first.seconds) / 20))
            page.context["chart"] = .html(Charts.steps(
                id: "points-chart", title: strings.format("chart_points_title", ["group": g.name]), description: description,
                series: series, start: Moment(seconds: first.seconds - 86_400), end: end, clock: site.clock, strings: strings))
        }
        page.noindex = !g.isListed
        page.feeds = [groupFeedLink(g)]
        page.breadcrumbs = groupCrumbs(g)
        return page
    }

    /// `leaderboard.json`: the numbers of the leaderboard page, for other tools.
    func leaderboardJSON(_ id: String) -> String {
        let g = groupModel(id)!
        let standings: [JSON] = g.leaderboard.map { s in
            .object([
                ("rank", .int(s.rank)), ("member", .string(s.member)),
                ("name", .string(memberModel(s.member)?.name ?? s.member)),
                ("url", .string(routes.absolute(routes.member(s.member)))), ("points", .int(s.points)), ("goals", .int(s.goals)),
            ])
        }
        let completions: [JSON] = completionHistory(g).map { entry in
            .object([
                ("goal", .string(entry.goal.id)), ("title", .string(entry.goal.title)), ("points", .int(entry.goal.points)),
                ("member", .string(entry.member)), ("completed_at", .string(site.clock.rfc3339(entry.goal.completedAt!))),
                ("total", .int(entry.total)),
            ])
        }
        return JSON.object([
            ("group", .string(id)), ("name", .string(g.name)), ("url", .string(routes.absolute(routes.leaderboard(id)))),
            ("standings", .array(standings)), ("completions", .array(completions)),
        ]).serialized(pretty: true) + "\n"
    }

    func groupCrumbs(_ g: GroupModel) -> [(label: String, path: String)] {
        [(strings["nav_home"], routes.home)] + (g.isListed ? [(strings["nav_groups"], routes.groups)] : [])
            + [(g.name, routes.group(g.id))]
    }

    /// `/groups/<g>/albums/<a>/`: the album's story and a grid of its photos.
    func albumPage(_ key: AlbumKey) -> Page {
        let g = groupModel(key.group)!
        let album = albumModel(key)!
        let photos = album.photos.enumerated().map { index, photo -> TemplateContext in
            var c: TemplateContext = [
                "url": .text(routes.url(routes.photo(key, photo.slug))),
                "caption": .text(photo.caption),
            ]
            if let by = photo.by { c["by"] = .object(memberLink(by)) }
            if let image = imageOf(photo.path) {
                c["image"] = .object(imageContext(
                    image, alt: photoAlt(album, index), sizes: "(min-width: 70rem) 22rem, (min-width: 40rem) 45vw, 100vw"))
            }
            return c
        }
        var c: TemplateContext = [
            "title": .text(album.title),
            "group": .text(g.name),
            "group_url": .text(routes.url(routes.group(g.id))),
            "date": time(album.date),
            "count": .text(strings.count("photo_count", album.photos.count)),
            "photos": .list(photos),
        ]
        if let html = bodyOf(album.file)?.html, !html.isEmpty { c["body"] = .html(html) }
        let map = albumHasMap(album) ? mapContext(id: "map-album", title: album.title, features: features(.album(key)), geoJSON: geoJSONPath(.album(key))) : nil
        c["map"] = map.map { .object($0) }
        var page = Page(
            template: "album", path: routes.album(key), title: album.title,
            description: summary(bodyOf(album.file)?.text ?? album.title, limit: 200), section: .groups,
            context: ["album": .object(c)])
        page.hasMap = map != nil
        if let cover = album.cover, let image = imageOf(cover.path) { page.image = (image.preview ?? image.display).path }
        page.noindex = !g.isListed
        page.feeds = [groupFeedLink(g)]
        page.source = album.file
        page.breadcrumbs = groupCrumbs(g)
        return page
    }

    /// `/groups/<g>/albums/<a>/<photo>/`: one photo with its caption, author and neighbours.
    func photoPage(_ key: AlbumKey, _ index: Int) -> Page {
        let g = groupModel(key.group)!
        let album = albumModel(key)!
        let photo = album.photos[index]
        let title = photo.caption ?? strings.format("photo_number", ["n": String(index + 1), "album": album.title])
        var c: TemplateContext = [
            "title": .text(title),
            "caption": .text(photo.caption),
            "position": .text(strings.format("photo_position", [
                "n": String(index + 1), "total": String(album.photos.count),
            ])),
            "album": .text(album.title),
            "album_url": .text(routes.url(routes.album(key))),
        ]
        if let by = photo.by { c["by"] = .object(memberLink(by)) }
        if let image = imageOf(photo.path) {
            c["image"] = .object(imageContext(image, alt: photo.caption ?? "", sizes: "(min-width: 70rem) 64rem, 100vw"))
            c["full_url"] = .text(routes.url(image.display.path))
            if let taken = image.info.takenAt {
                c["taken"] = .object(time(Moment(seconds: taken)))
            }
            c["camera"] = .text(image.info.camera)
        }
        if index > 0 {
            let previous = album.photos[index - 1]
            c["previous"] = .object(["url": .text(routes.url(routes.photo(key, previous.slug))), "caption": .text(previous.caption ?? previous.file)])
        }
        if index + 1 < album.photos.count {
            let next = album.photos[index + 1]
            c["next"] = .object(["url": .text(routes.url(routes.photo(key, next.slug))), "caption": .text(next.caption ?? next.file)])
        }
        let map = photoFeature(album, photo).flatMap {
            mapContext(id: "map-photo", title: title, features: [$0], geoJSON: geoJSONPath(.album(key)), highlight: $0.path)
        }
        c["map"] = map.map { .object($0) }
        var page = Page(
            template: "photo", path: routes.photo(key, photo.slug), title: title,
            description: photo.caption ?? album.title, section: .groups, context: ["photo": .object(c)])
        page.hasMap = map != nil
        if let image = imageOf(photo.path) { page.image = (image.preview ?? image.display).path }
        page.noindex = !g.isListed
        page.feeds = [groupFeedLink(g)]
        page.source = album.file
        page.breadcrumbs = groupCrumbs(g) + [(album.title, routes.album(key))]
        return page
    }
}
