import PleinMarkdown
import PleinModel
import Foundation
import PleinCore
import PleinMustache

extension Renderer {
    /// `/users/`: every member by name.
    func memberList() -> Page {
        let members = memberOrder.map { id -> TemplateContext in
            let m = memberModel(id)!
            var c = memberLink(id)
            c["near"] = .text(m.nearPlace)
            c["postcode"] = .text(m.postcode)
            c["certification"] = .text(m.diving?.certification)
            c["is_diver"] = .flag(m.diving != nil)
            return c
        }
        var page = Page(
            template: "members", path: routes.members, title: strings["members_title"],
            description: strings.format("members_description", ["n": strings.number(members.count), "site": site.title]),
            section: .members)
        page.context = ["members": .list(members), "count": .text(strings.count("member_count", members.count))]
        page.feeds = [siteFeedLink]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }

    /// `/users/<id>/`: everything a member did on the site.
    func memberPage(_ id: String) -> Page {
        let m = memberModel(id)!
        var c = memberLink(id)
        if let avatar = m.avatar, let image = imageOf(avatar) {
            c["portrait"] = .object(imageContext(image, alt: strings.format("avatar_alt", ["name": m.name]), sizes: "10rem"))
        }
        c["joined"] = time(m.joined)
        if let bio = bodyOf(m.file)?.html, !bio.isEmpty { c["bio"] = .html(bio) }
        if let d = m.diving {
            var diving: TemplateContext = ["certification": .text(d.certification)]
            if let years = d.years { diving["years"] = .text(strings.count("years_count", years)) }
            if let dives = d.dives { diving["dives"] = .text(strings.number(dives)) }
            c["diving"] = .object(diving)
        }
        if m.home != nil || m.postcode != nil {
            var home: TemplateContext = ["postcode": .text(m.postcode)]
            if let near = m.nearPlace {
                home["near"] = .text(strings.format("home_near", [
                    "place": near, "km": strings.decimal(site.locationPrecisionKm, digits: site.locationPrecisionKm < 1 ? 1 : 0),
                ]))
            }
            if let postcode = m.postcode, areaModels.contains(where: { $0.id == postcode }) {
                if site.has(.reports) { home["area_url"] = .text(routes.url(routes.area(postcode))) }
            }
            c["home"] = .object(home)
        }
        c["groups"] = .list(m.groups.map { gid in
            let g = groupModel(gid)!
            return ["name": .text(g.name), "url": .text(routes.url(routes.group(gid))),
                    "members": .text(strings.count("member_count", g.members.count))]
        })
        c["albums"] = .list(m.albums.compactMap { albumModel($0).map(albumCard) })
        c["reports"] = .list(m.reports.map { reportCard($0) })
        c["follows"] = .list(m.follows.map { reportCard($0) })
        c["replies"] = .list(m.replies.compactMap { ref -> TemplateContext? in
            guard let report = reportModel(ref.report) else { return nil }
            let reply = report.replies[ref.index]
            return [
                "report": .text(report.title),
                "url": .text(routes.url(routes.report(report.id)) + "#\(reply.anchor)"),
                "at": .object(time(reply.at)),
                "summary": .text(summary(bodyOf(reply.file)?.text ?? "", limit: 140)),
            ]
        })
        c["friends"] = .list(m.friends.map { memberLink($0) })
        let goals = m.completedGoals.compactMap { goalModel($0) }
        c["goals"] = .list(goals.map { goalContext($0) })
        let points = pointsPerGroup(id, goals: goals)
        if !points.isEmpty { c["points"] = .object(["rows": .list(points)]) }
        let sessions = self.sessions(of: id)
        if !sessions.isEmpty {
            let study = StudyTime(sessions: sessions, clock: site.clock)
            let present = sessions.last { $0.end == nil }.flatMap { s in locationModel(s.location)?.name }
            c["study"] = .object([
                "total": .text(strings.duration(seconds: study.total)),
                "sessions": .text(strings.count("session_count", study.finished)),
                "url": .text(routes.url(routes.progress(id))),
                "present": .text(present),
            ])
        }
        // A new thread is its thread.yaml first; messages are added as files beside it.
        let thread = "participants: [\(strings["thread_your_id"]), \(id)]\nsubject: \n"
        if let url = newFileURL(folder: "threads", name: "\(id)-\(strings["thread_new_slug"])/thread.yaml", text: thread) {
            c["message_url"] = .text(url)
        }
        c["feed_url"] = .text(routes.url(routes.memberFeed(id)))
        c["following_url"] = .text(routes.url(routes.followingFeed(id)))

        var page = Page(
            template: "member", path: routes.member(id), title: m.name,
            description: summary(bodyOf(m.file)?.text ?? strings.format("member_description", ["name": m.name]), limit: 200),
            section: .members, context: ["member": .object(c)])
        if let avatar = m.avatar, let image = imageOf(avatar) { page.image = (image.preview ?? image.display).path }
        page.feeds = [
            Page.Feed(title: strings.format("feed_member", ["name": m.name]), path: routes.memberFeed(id), type: "application/atom+xml"),
        ]
        if site.has(.reports) {
            page.feeds.append(Page.Feed(title: strings.format("feed_following", ["name": m.name]), path: routes.followingFeed(id), type: "application/atom+xml"))
        }
        page.source = m.file
        page.breadcrumbs = [(strings["nav_home"], routes.home), (strings["nav_members"], routes.members)]
        return page
    }

    /// Points and completed goals per listed group, for the profile's table.
    func pointsPerGroup(_ member: String, goals: [GoalModel]) -> [TemplateContext] {
        var totals: [String: (points: Int, goals: Int)] = [:]
        for goal in goals { totals[goal.group, default: (0, 0)].points += goal.points; totals[goal.group]!.goals += 1 }
        return groupOrder.filter { totals[$0] != nil }.map { gid in
            let rank = groupModel(gid)!.leaderboard.first { $0.member == member }?.rank
            return [
                "group": .text(groupModel(gid)!.name),
                "url": .text(routes.url(routes.leaderboard(gid))),
                "points": .text(strings.number(totals[gid]!.points)),
                "goals": .text(strings.number(totals[gid]!.goals)),
                "rank": .text(rank.map { strings.number($0) }),
            ]
        }
    }
}
