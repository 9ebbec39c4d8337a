import PleinText
import PleinCore
import PleinMarkdown
import PleinModel
import PleinMustache

/// `/users/`: every member by name.
struct MemberListPage: PageRenderer {
    let inputs: RenderInputs

    struct Row: HandWrittenTemplate {
        let chip: MemberChip
        let near: String?
        let postcode: String?
        let certification: String?
        let isDiver: Bool

        var template: TemplateContext {
            var c = chip.template
            c["near"] = .text(near)
            c["postcode"] = .text(postcode)
            c["certification"] = .text(certification)
            c["is_diver"] = .flag(isDiver)
            return c
        }
    }

    struct Values: TemplateValues, Encodable {
        let members: [Row]
        let count: String
    }

    func page() -> Page {
        let members = view.memberOrder.compactMap { id -> Row? in
            guard let m = view.card(id) else { return view.miss("member \(id)", nil) }
            return Row(chip: chip(id), near: m.nearPlace, postcode: m.postcode, certification: m.diving?.certification, isDiver: m.diving != nil)
        }
        var page = Page(
            kind: .members, path: routes.members, title: strings["members_title"],
            description: strings.format("members_description", ["n": strings.number(members.count), "site": site.title]),
            section: .members)
        page.values = Values(members: members, count: strings.count("member_count", members.count))
        page.feeds = [siteFeed]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }
}

/// `/users/<id>/`: everything a member did on the site.
struct MemberPage: PageRenderer {
    let inputs: RenderInputs
    let id: String

    func page() -> Page {
        guard let m = view.member(id) else { return missingPage("member \(id)", kind: .member, path: routes.member(id), section: .members) }
        var page = Page(
            kind: .member, path: routes.member(id), title: m.name,
            description: summary(of: m.file, limit: 200, otherwise: strings.format("member_description", ["name": m.name])),
            section: .members)
        page.values = MemberProfile.Values(member: profile(m))
        if let avatar = m.avatar, let image = view.image(avatar) { page.image = (image.preview ?? image.display).path }
        page.feeds = [.atom(strings.format("feed_member", ["name": m.name]), routes.memberFeed(id), jsonTwin: FeedID.member(id).hasJSONTwin)]
        if site.has(.reports), !m.follows.isEmpty { page.feeds.append(.atom(strings.format("feed_following", ["name": m.name]), routes.followingFeed(id), jsonTwin: FeedID.following(id).hasJSONTwin)) }
        page.feeds += calendarLinks(.member(id))
        page.source = m.file
        page.breadcrumbs = [(strings["nav_home"], routes.home), (strings["nav_members"], routes.members)]
        return page
    }

    func profile(_ m: MemberModel) -> MemberProfile {
        let goals = m.completedGoals.compactMap(view.goal)
        // A new thread is its thread.yaml first; messages are added as files beside it.
        let thread = ContentLayout.thread("\(id)-\(strings["thread_new_slug"])")
        return MemberProfile(
            chip: chip(id),
            portrait: m.avatar.flatMap(view.image).map { image($0, alt: strings.format("avatar_alt", ["name": m.name]), sizes: "10rem") },
            joined: time(m.joined),
            left: time(m.left),
            bio: view.body(m.file)?.html,
            diving: m.diving.map { d in
                MemberProfile.Diving(certification: d.certification, years: d.years.map { strings.count("years_count", $0) },
                                     dives: d.dives.map { strings.number($0) })
            },
            home: home(m),
            groups: m.groups.compactMap { gid -> MemberProfile.GroupLink? in
                guard let g = view.groupCard(gid) else { return view.miss("group \(gid)", nil) }
                return .init(name: g.name, url: routes.url(routes.group(gid)), members: strings.count("member_count", g.members))
            },
            albums: m.albums.compactMap(view.album).map(cards.album),
            reports: m.reports.compactMap(cards.report),
            follows: m.follows.compactMap(cards.report),
            replies: m.replies.compactMap { ref in
                guard let report = view.report(ref.report) else { return nil }
                let reply = report.replies[ref.index]
                return .init(report: report.title, url: routes.url(routes.report(report.id)) + "#\(reply.anchor)", at: time(reply.at),
                             summary: summary(of: reply.file, limit: 140))
            },
            friends: m.friends.map(chip),
            goals: goals.map(cards.goal),
            points: pointsPerGroup(goals),
            study: study(),
            // Only where threads are published (a secret was given): elsewhere a message would
            // sit in the repository and never appear.
            messageURL: inputs.options.threadKeys == nil ? nil : forge.newFile(
                folder: ContentLayout.threads, name: String(thread.dropFirst(ContentLayout.threads.count + 1)),
                text: "participants: [\(strings["thread_your_id"]), \(id)]\nsubject: \n"),
            feedURL: routes.url(routes.memberFeed(id)), followingURL: m.follows.isEmpty || !site.has(.reports) ? nil : routes.url(routes.followingFeed(id)))
    }

    func home(_ m: MemberModel) -> MemberProfile.Home? {
        guard m.home != nil || m.postcode != nil else { return nil }
        let near = m.nearPlace.map { near in
            strings.format("home_near", [
                "place": near, "km": strings.decimal(site.locationPrecisionKm, digits: site.locationPrecisionKm < 1 ? 1 : 0),
            ])
        }
        var areaURL: String?
        if let postcode = m.postcode, view.areas.contains(where: { $0.id == postcode }), site.has(.reports) {
            areaURL = routes.url(routes.area(postcode))
        }
        return MemberProfile.Home(postcode: m.postcode, near: near, areaURL: areaURL)
    }

    /// Points and completed goals per listed group, for the profile's table.
    func pointsPerGroup(_ goals: [GoalModel]) -> [MemberProfile.Points] {
        var totals: [String: (points: Int, goals: Int)] = [:]
        for goal in goals { totals[goal.group, default: (0, 0)].points += goal.points; totals[goal.group]!.goals += 1 }
        return view.groupOrder.filter { totals[$0] != nil }.compactMap { gid -> MemberProfile.Points? in
            guard let group = view.group(gid) else { return view.miss("group \(gid)", nil) }
            let rank = group.leaderboard.first { $0.member == id }?.rank
            return .init(group: group.name, url: routes.url(routes.leaderboard(gid)), points: strings.number(totals[gid]!.points),
                         goals: strings.number(totals[gid]!.goals), rank: rank.map { strings.number($0) })
        }
    }

    func study() -> MemberProfile.Study? {
        let sessions = view.sessions(of: id)
        guard !sessions.isEmpty else { return nil }
        let study = StudyTime(sessions: sessions, clock: site.clock)
        return .init(total: strings.duration(seconds: study.total), sessions: strings.count("session_count", study.finished),
                     url: routes.url(routes.progress(id)),
                     present: sessions.last { $0.end == nil }.flatMap { s in view.locationName(s.location) })
    }
}
