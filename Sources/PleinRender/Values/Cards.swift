import PleinText
import PleinCore
import PleinMarkdown
import PleinModel
import PleinMustache

/// A report category as a badge: its label, colour and symbol (and, in filters, how many).
struct CategoryBadge: TemplateValues {
    let category: Category
    let label: String
    var count: String?

    var template: TemplateContext {
        var c: TemplateContext = [
            "key": .text(category.rawValue),
            "label": .text(label),
            "color": .text(CategoryStyle.color(category)),
            "icon": .html(CategoryStyle.icon(category)),
        ]
        if let count { c["count"] = .text(count) }
        return c
    }
}

/// A report in a list: title, category, author, time, area and the start of its text.
struct ReportCard: TemplateValues {
    let title: String
    let url: String
    let category: CategoryBadge
    let at: TimeValue
    let author: MemberChip
    let area: String
    let areaURL: String
    let summary: String
    let replies: String?

    var template: TemplateContext {
        [
            "title": .text(title), "url": .text(url), "category": .of(category), "at": .of(at), "author": .of(author),
            "area": .text(area), "area_url": .text(areaURL), "summary": .text(summary), "replies": .text(replies),
        ]
    }
}

/// An album in a list: title, group, how many photos, its date and cover.
struct AlbumCard: TemplateValues {
    let title: String
    let url: String
    let group: String
    let groupURL: String
    let photos: String
    let date: TimeValue?
    let cover: ImageValue?

    var template: TemplateContext {
        var c: TemplateContext = [
            "title": .text(title), "url": .text(url), "group": .text(group), "group_url": .text(groupURL), "photos": .text(photos),
            "date": .of(date),
        ]
        if let cover { c["cover"] = .of(cover) }
        return c
    }
}

/// A goal: its points, who added and who completed it, and its description.
struct GoalItem: TemplateValues {
    let id: String
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
    struct Tally: TemplateValues {
        struct Contributor: TemplateValues {
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
        let text: String
        let contributors: [Contributor]

        var template: TemplateContext {
            ["total": .number(total), "target": .number(target), "text": .text(text), "reached": .flag(total >= target),
             "contributors": .list(contributors)]
        }
    }

    var template: TemplateContext {
        var c: TemplateContext = [
            "id": .text(id), "anchor": .text("goal-\(id)"), "title": .text(title), "points": .text(points), "url": .text(url),
            "group": .text(group), "group_url": .text(groupURL), "added": .of(added), "completed_at": .of(completedAt),
        ]
        if let addedBy { c["added_by"] = .of(addedBy) }
        if let completedBy { c["completed_by"] = .of(completedBy) }
        if let body { c["body"] = .html(body) }
        c["tally"] = .of(tally)
        return c
    }
}

/// Builds the cards that many pages show.
struct Cards: Rendering {
    let inputs: RenderInputs

    func category(_ category: Category) -> CategoryBadge {
        CategoryBadge(category: category, label: strings["category_\(category.rawValue)"])
    }

    /// Report counts per category (only categories that occur), for filters and summaries.
    func categoryCounts(_ reports: [String]) -> [CategoryBadge] {
        Category.allCases.compactMap { category in
            let n = reports.count { view.headline($0)?.category == category }
            guard n > 0 else { return nil }
            var badge = self.category(category)
            badge.count = strings.number(n)
            return badge
        }
    }

    func report(_ id: String) -> ReportCard? {
        guard let r = view.headline(id) else { return nil }
        let area = view.area(r.area)
        return ReportCard(
            title: r.title, url: routes.url(routes.report(id)), category: category(r.category), at: time(r.at), author: chip(r.author),
            area: area?.name ?? r.area, areaURL: routes.url(routes.area(r.area)), summary: summary(of: r.file, limit: 160),
            replies: r.replies == 0 ? nil : strings.count("reply_count", r.replies))
    }

    func album(_ album: AlbumModel) -> AlbumCard {
        AlbumCard(
            title: album.title, url: routes.url(routes.album(album.key)), group: view.group(album.group)?.name ?? album.group,
            groupURL: routes.url(routes.group(album.group)), photos: names.itemCount(album), date: time(album.date),
            cover: album.cover.flatMap { cover in
                view.image(cover.path).map { image($0, alt: cover.caption ?? "", sizes: "(min-width: 60rem) 20rem, 50vw") }
            })
    }

    func goal(_ goal: GoalModel) -> GoalItem {
        let html = view.body(goal.file)?.html
        return GoalItem(
            id: goal.id, title: goal.title, points: strings.count("points_count", goal.points),
            url: routes.url(routes.group(goal.group)) + "#goal-\(goal.id)", group: view.group(goal.group)?.name ?? goal.group,
            groupURL: routes.url(routes.group(goal.group)), added: time(goal.added), completedAt: time(goal.completedAt),
            addedBy: goal.addedBy.map(chip), completedBy: goal.completedBy.map(chip), body: html?.isEmpty == false ? html : nil,
            tally: goal.target.map { target in
                let text = strings.format("goal_tally", ["total": strings.number(goal.total), "target": strings.number(target), "unit": goal.unit ?? ""])
                return GoalItem.Tally(
                    total: goal.total, target: target, text: text.trimmingWhitespace,
                    contributors: goal.contributions.map { .init(chip: chip($0.member), count: strings.number($0.count)) })
            })
    }
}
