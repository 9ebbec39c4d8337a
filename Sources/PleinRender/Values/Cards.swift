import PleinText
import PleinCore
import PleinMarkdown
import PleinModel
import PleinMustache

/// A report category as a badge: its label, colour and symbol (and, in filters, how many).
struct CategoryBadge: TemplateValues, Encodable {
    let key: String
    let label: String
    let color: String
    let icon: TrustedHTML
    var count: String?

    init(category: Category, label: String) {
        key = category.rawValue
        self.label = label
        color = CategoryStyle.color(category)
        icon = CategoryStyle.icon(category)
    }
}

/// A report in a list: title, category, author, time, area and the start of its text.
struct ReportCard: TemplateValues, Encodable {
    let title: String
    let url: String
    let category: CategoryBadge
    let at: TimeValue
    let author: MemberChip
    let area: String
    let areaURL: String
    let summary: String
    let replies: String?
}

/// An album in a list: title, group, how many photos, its date and cover.
struct AlbumCard: TemplateValues, Encodable {
    let title: String
    let url: String
    let group: String
    let groupURL: String
    let photos: String
    let date: TimeValue?
    let cover: ImageValue?
}

/// A goal: its points, who added and who completed it, and its description.
struct GoalItem: TemplateValues, Encodable {
    let id: String
    /// The goal's place on its group's page.
    let anchor: String
    let title: String
    let points: String
    let url: String
    let group: String
    let groupURL: String
    let added: TimeValue?
    let completedAt: TimeValue?
    let addedBy: MemberChip?
    let completedBy: MemberChip?
    let body: TrustedHTML?
    let tally: Tally?

    /// A goal the group reaches together: how far it is, and who added how many.
    struct Tally: TemplateValues, Encodable {
        struct Contributor: HandWrittenTemplate {
            let chip: MemberChip
            let count: String
            var template: TemplateContext {
                var c = chip.template
                c["count"] = .text(count)
                return c
            }
        }

        let total: Int
        let target: Int
        let reached: Bool
        let text: String
        let contributors: [Contributor]
    }
}

/// Builds the cards that many pages show.
struct Cards: Rendering {
    let inputs: RenderInputs

    func category(_ category: Category) -> CategoryBadge {
        CategoryBadge(category: category, label: strings["category_\(category.rawValue)"])
    }

    /// An area's report counts per category (only categories that occur), for filters and
    /// summaries: kept from the last build while the area's reports and their headlines are the
    /// same (a new report counts its own area's again, not every one's).
    func categoryCounts(area id: String) -> [CategoryBadge] {
        badges(view.fragment("categories:area:" + id) { counted(area: id) }[...])
    }

    /// The counts of `categoryCounts` for each of `areas`, kept as one list (`ModelView.entries`).
    func categoryCounts(areas: [String]) -> [[CategoryBadge]] {
        view.entries("categories:areas", each: "categories:area:", ids: areas) { counted(area: $0) }.map(badges)
    }

    /// An area's counts, by category in `Category.allCases`'s order, as kept.
    private func counted(area id: String) -> [UInt8] {
        // (Each report's headline read once: a page of every report reads tens of thousands.)
        var counts = [UInt32](repeating: 0, count: Category.allCases.count)
        for report in view.area(id)?.reports ?? [] {
            if let category = view.headline(report)?.category, let index = Category.allCases.firstIndex(of: category) { counts[index] += 1 }
        }
        var bytes: [UInt8] = []
        for count in counts { KeptBytes.append(count, to: &bytes) }
        return bytes
    }

    private func badges(_ kept: ArraySlice<UInt8>) -> [CategoryBadge] {
        Category.allCases.enumerated().compactMap { index, category in
            let n = kept.count >= 4 * (index + 1) ? Int(KeptBytes.read(UInt32.self, kept, at: 4 * index)) : 0
            guard n > 0 else { return nil }
            var badge = self.category(category)
            badge.count = strings.number(n)
            return badge
        }
    }

    func report(_ id: String) -> ReportCard? {
        guard let r = view.headline(id) else { return nil }
        return ReportCard(
            title: r.title, url: routes.url(routes.report(id)), category: category(r.category), at: time(r.at), author: chip(r.author),
            area: view.areaCard(r.area)?.name ?? r.area, areaURL: routes.url(routes.area(r.area)), summary: summary(of: r.file, limit: 160),
            replies: (view.reportReplies(id)?.replies.count).flatMap { $0 == 0 ? nil : strings.count("reply_count", $0) })
    }

    func album(_ album: AlbumModel) -> AlbumCard {
        AlbumCard(
            title: album.title, url: routes.url(routes.album(album.key)), group: view.groupCard(album.group)?.name ?? album.group,
            groupURL: routes.url(routes.group(album.group)), photos: names.itemCount(album), date: time(album.date),
            cover: album.cover.flatMap { cover in
                view.image(cover.path).map { image($0, alt: cover.caption ?? "", sizes: "(min-width: 60rem) 20rem, 50vw") }
            })
    }

    func goal(_ goal: GoalModel) -> GoalItem {
        let html = view.body(goal.file)?.html
        return GoalItem(
            id: goal.id, anchor: "goal-\(goal.id)", title: goal.title, points: strings.count("points_count", goal.points),
            url: routes.url(routes.group(goal.group)) + "#goal-\(goal.id)", group: view.groupCard(goal.group)?.name ?? goal.group,
            groupURL: routes.url(routes.group(goal.group)), added: time(goal.added), completedAt: time(goal.completedAt),
            addedBy: goal.addedBy.map(chip), completedBy: goal.completedBy.map(chip), body: html,
            tally: goal.target.map { target in
                let text = strings.format("goal_tally", ["total": strings.number(goal.total), "target": strings.number(target), "unit": goal.unit ?? ""])
                return GoalItem.Tally(
                    total: goal.total, target: target, reached: goal.total >= target, text: text.trimmingWhitespace,
                    contributors: goal.contributions.map { .init(chip: chip($0.member), count: strings.number($0.count)) })
            })
    }
}
