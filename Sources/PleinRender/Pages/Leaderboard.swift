import PleinText
import PleinCore
import PleinModel
import PleinMustache

/// Completions of a group oldest first, with each member's running total: the leaderboard's
/// history, its chart and its JSON.
struct CompletionHistory {
    struct Entry {
        let goal: GoalModel
        let member: String
        let total: Int
    }

    let entries: [Entry]

    init(_ g: GroupModel) {
        var totals: [String: Int] = [:]
        entries = g.completedGoals.sorted { ($0.completedAt!, $0.id) < ($1.completedAt!, $1.id) }.compactMap { goal in
            guard let by = goal.completedBy else { return nil }
            totals[by, default: 0] += goal.points
            return Entry(goal: goal, member: by, total: totals[by]!)
        }
    }
}

/// `/groups/<id>/leaderboard/`: everyone in the group by points, and points over time.
struct LeaderboardPage: PageRenderer {
    let inputs: RenderInputs
    let id: String

    struct Row: TemplateValues, Encodable {
        let date: TimeValue?
        let member: MemberChip
        let goal: String
        let points: String
        let total: String
    }

    struct Values: TemplateValues, Encodable {
        let group: String
        let groupURL: String
        let standings: [StandingRow]
        /// Nil for a members-only group (its numbers are not published in the open).
        let jsonURL: String?
        let history: [Row]
        /// The points-over-time chart, an SVG drawing.
        let chart: TrustedHTML?
    }

    func page() -> Page {
        guard let g = view.group(id) else { return missingPage("group \(id)", kind: .leaderboard, path: routes.leaderboard(id), section: .groups) }
        let history = CompletionHistory(g).entries
        var page = Page(
            kind: .leaderboard, path: routes.leaderboard(id), title: strings.format("leaderboard_title", ["group": g.name]),
            description: strings.format("leaderboard_description", ["group": g.name]), section: .groups)
        page.values = Values(
            group: g.name, groupURL: routes.url(routes.group(id)), standings: g.leaderboard.map(standing),
            jsonURL: sealed(id) ? nil : routes.url(routes.leaderboardJSON(id)),
            history: history.map {
                Row(date: time($0.goal.completedAt), member: chip($0.member), goal: $0.goal.title, points: strings.number($0.goal.points),
                    total: strings.number($0.total))
            },
            chart: chart(g, history))
        page.noindex = !g.isListed
        page.feeds = groupFeeds(g)
        page.breadcrumbs = groupCrumbs(g)
        return page
    }

    func name(_ member: String) -> String { view.card(member)?.name ?? member }

    /// Each scorer's running total as a step line; nil before the first completion.
    func chart(_ g: GroupModel, _ history: [CompletionHistory.Entry]) -> TrustedHTML? {
        guard let first = history.first?.goal.completedAt, let last = history.last?.goal.completedAt else { return nil }
        let scorers = g.leaderboard.filter { $0.points > 0 }
        let series = scorers.enumerated().map { i, standing in
            Charts.Series(
                name: name(standing.member), color: Charts.palette[i % Charts.palette.count],
                points: history.filter { $0.member == standing.member }.map { entry in
                    (entry.goal.completedAt!, Double(entry.total),
                     strings.format("chart_completion", [
                        "name": name(entry.member), "goal": entry.goal.title, "total": strings.count("points_count", entry.total),
                     ]))
                })
        }
        let leader = g.leaderboard.first.map { name($0.member) } ?? ""
        let description = strings.format("chart_points_description", [
            "n": strings.number(scorers.count), "leader": leader, "points": strings.count("points_count", g.leaderboard.first?.points ?? 0),
        ])
        let end = Moment(seconds: last.seconds + max(86_400, (last.seconds - first.seconds) / 20))
        return Charts.steps(
            id: "points-chart", title: strings.format("chart_points_title", ["group": g.name]), description: description,
            series: series, start: Moment(seconds: first.seconds - 86_400), end: end, clock: site.clock, strings: strings)
    }
}

/// `leaderboard.json`: the numbers of the leaderboard page, for other tools.
struct LeaderboardJSON: Rendering {
    let inputs: RenderInputs
    let id: String

    func render() -> OutputFile {
        guard let g = view.group(id) else { return view.miss("group \(id)", OutputFile(path: routes.leaderboardJSON(id), bytes: [])) }
        let standings: [JSON] = g.leaderboard.map { s in
            .object([
                ("rank", .int(s.rank)), ("member", .string(s.member)), ("name", .string(view.card(s.member)?.name ?? s.member)),
                ("url", .string(routes.absolute(routes.member(s.member)))), ("points", .int(s.points)), ("goals", .int(s.goals)),
            ])
        }
        let completions: [JSON] = CompletionHistory(g).entries.map { entry in
            .object([
                ("goal", .string(entry.goal.id)), ("title", .string(entry.goal.title)), ("points", .int(entry.goal.points)),
                ("member", .string(entry.member)), ("completed_at", .string(site.clock.rfc3339(entry.goal.completedAt!))),
                ("total", .int(entry.total)),
            ])
        }
        let json = JSON.object([
            ("group", .string(id)), ("name", .string(g.name)), ("url", .string(routes.absolute(routes.leaderboard(id)))),
            ("standings", .array(standings)), ("completions", .array(completions)),
        ])
        return OutputFile(path: routes.leaderboardJSON(id), text: json.serialized(pretty: true) + "\n")
    }
}
