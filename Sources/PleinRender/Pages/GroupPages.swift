import PleinText
import PleinCore
import PleinMarkdown
import PleinModel
import PleinMustache

/// `/groups/`: the listed groups by name. Unlisted groups are left out on purpose.
struct GroupListPage: PageRenderer {
    let inputs: RenderInputs

    struct Row: TemplateValues, Encodable {
        let name: String
        let url: String
        let summary: String
        let members: String
        let albums: String
        let goals: String
        let people: [MemberChip]
        let cover: ImageValue?
    }

    struct Values: TemplateValues, Encodable {
        let groups: [Row]
    }

    func page() -> Page {
        let groups = view.groupOrder.compactMap(view.group).filter(\.isListed).map { g in
            Row(
                name: g.name, url: routes.url(routes.group(g.id)), summary: summary(of: g.file, limit: 180),
                members: strings.count("member_count", g.members.count), albums: strings.count("album_count", g.albums.count),
                goals: strings.count("open_goal_count", g.openGoals.count), people: g.members.prefix(6).map(chip),
                cover: g.albums.first?.cover.flatMap { view.image($0.path) }.map {
                    image($0, alt: "", sizes: "(min-width: 60rem) 22rem, 100vw")
                })
        }
        var page = Page(
            kind: .groups, path: routes.groups, title: strings["groups_title"],
            description: strings.format("groups_description", ["site": site.title]), section: .groups)
        page.values = Values(groups: groups)
        page.feeds = [siteFeed]
        page.breadcrumbs = [(strings["nav_home"], routes.home)]
        return page
    }
}

/// `/groups/<id>/`: members, albums, goals and the top of the leaderboard.
struct GroupPage: PageRenderer {
    let inputs: RenderInputs
    let id: String

    struct Values: TemplateValues, Encodable {
        let group: Group
    }

    struct Group: Encodable {
        let name: String
        let members: [MemberChip]
        let memberCount: String
        let albums: [AlbumCard]
        let openGoals: [GoalItem]
        let completedGoals: [GoalItem]
        let leaderboard: [StandingRow]
        /// Nil for a group without goals, which has no leaderboard.
        let leaderboardURL: String?
        let feedURL: String?
        let unlisted: Bool
        /// Published sealed, for those with the group's passphrase.
        let membersOnly: Bool
        let body: TrustedHTML?
        let createdBy: MemberChip?
        let events: EventsBlock?
    }

    func page() -> Page {
        guard let g = view.group(id) else { return missingPage("group \(id)", kind: .group, path: routes.group(id), section: .groups) }
        var page = Page(
            kind: .group, path: routes.group(id), title: g.name,
            description: summary(of: g.file, limit: 200, otherwise: g.name), section: .groups)
        page.values = Values(group: Group(
            name: g.name, members: g.members.map(chip), memberCount: strings.count("member_count", g.members.count),
            albums: g.albums.map(cards.album), openGoals: g.openGoals.map(cards.goal), completedGoals: g.completedGoals.map(cards.goal),
            leaderboard: g.hasGoals ? g.leaderboard.prefix(5).map(standing) : [],
            leaderboardURL: g.hasGoals ? routes.url(routes.leaderboard(id)) : nil,
            feedURL: sealed(id) ? nil : routes.url(routes.groupFeed(id)), unlisted: g.visibility == .unlisted,
            membersOnly: g.visibility == .members, body: view.body(g.file)?.html, createdBy: g.createdBy.map(chip),
            events: site.has(.groups) ? eventsBlock(.group(id), past: true, showContext: false) : nil))
        page.noindex = !g.isListed
        if let cover = g.albums.first?.cover, let image = view.image(cover.path) { page.image = (image.preview ?? image.display).path }
        page.feeds = groupFeeds(g) + calendarLinks(.group(id))
        page.source = g.file
        page.breadcrumbs = [(strings["nav_home"], routes.home)] + (g.isListed ? [(strings["nav_groups"], routes.groups)] : [])
        return page
    }
}

/// One row of a leaderboard.
struct StandingRow: TemplateValues, Encodable {
    let rank: String
    let leader: Bool
    let member: MemberChip
    let points: String
    let goals: String
}

extension Rendering {
    /// A group's feed, linked from its pages.
    func groupFeed(_ g: GroupModel) -> Page.Feed { .atom(strings.format("feed_group", ["group": g.name]), routes.groupFeed(g.id), jsonTwin: FeedID.group(g.id).hasJSONTwin) }

    /// The feeds a group's pages link: none for a members-only group.
    func groupFeeds(_ g: GroupModel) -> [Page.Feed] { sealed(g.id) ? [] : [groupFeed(g)] }

    /// Whether a group is members-only and published sealed: its pages are, and its feeds,
    /// calendars, GeoJSON and leaderboard JSON are not published at all.
    func sealed(_ group: String) -> Bool { inputs.options.sealing[group] != nil }

    /// Breadcrumbs to a group's page (through the group list when the group is listed).
    func groupCrumbs(_ g: GroupModel) -> [(label: String, path: String)] {
        [(strings["nav_home"], routes.home)] + (g.isListed ? [(strings["nav_groups"], routes.groups)] : []) + [(g.name, routes.group(g.id))]
    }

    func standing(_ s: Standing) -> StandingRow {
        StandingRow(rank: strings.number(s.rank), leader: s.rank == 1 && s.points > 0, member: chip(s.member),
                    points: strings.number(s.points), goals: strings.number(s.goals))
    }
}
