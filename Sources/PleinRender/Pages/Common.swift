import PleinText
import PleinModel
import PleinMarkdown
import Foundation
import PleinCore
import PleinMustache

/// Context values that are the same on every page, made once per build.
struct SharedContexts: Sendable {
    let site: TemplateValue
    /// The interface text table as `t`.
    let text: TemplateValue
    let assets: TemplateValue
    let leaflet: TemplateValue?

    init(site config: SiteConfig, theme: Theme, routes: Routes, leaflet: LeafletAssets?) {
        site = .object([
            "title": .text(config.title),
            "description": .text(config.description.isEmpty ? nil : config.description),
            "sections": .object(SiteSection.allCases.reduce(into: TemplateContext()) { $0[$1.rawValue] = .flag(config.has($1)) }),
            "language": .text(config.language.rawValue),
            "home": .text(routes.url(routes.home)),
            "feed": .text(routes.url(routes.siteFeed)),
        ])
        var text = TemplateContext()
        for (key, value) in theme.strings.table { text[key] = .text(value) }
        self.text = .object(text)
        assets = .object([
            "css": .text(routes.url(theme.asset("style.css"))),
            "js": .text(routes.url(theme.asset("plein.js"))),
            "icon": .text(routes.url(theme.asset("icon.svg"))),
        ])
        self.leaflet = leaflet.map {
            .object(["script": .text(routes.url($0.script)), "stylesheet": .text(routes.url($0.stylesheet))])
        }
    }
}

/// Context pieces shared by many pages.
extension Renderer {
    /// The section links; the current section is marked `aria-current="page"` on its own page and
    /// `aria-current="true"` on the pages below it.
    func navigation(current: Section, path: String) -> [TemplateContext] {
        let items: [(Section, String, String)] = [
            (.members, "nav_members", routes.members),
            (.divers, "nav_divers", routes.divers),
            (.groups, "nav_groups", routes.groups),
            (.reports, "nav_reports", routes.areas),
            (.locations, "nav_locations", routes.locations),
            (.now, "nav_now", routes.now),
        ]
        return items.filter { site.has($0.0.siteSection!) }.map { section, key, sectionPath in
            var item: TemplateContext = ["label": .text(strings[key]), "url": .text(routes.url(sectionPath))]
            if section == current { item["current"] = .text(sectionPath == path ? "page" : "true") }
            return item
        }
    }

    func frameContext(_ page: Page) -> TemplateContext {
        let fullTitle = page.section == .home && page.path.isEmpty ? site.title : "\(page.title) · \(site.title)"
        var c: TemplateContext = [
            "title": .text(page.title),
            "full_title": .text(fullTitle),
            "description": .text(page.description.isEmpty ? site.description : page.description),
            "canonical": .text(routes.absolute(page.path)),
            "noindex": .flag(page.noindex),
            "robots": .text(page.noindex ? (page.nofollow ? "noindex, nofollow" : "noindex") : nil),
            "og_type": .text(page.section == .reports && page.path.count > routes.areas.count + 6 ? "article" : "website"),
            "feeds": .list(page.feeds.flatMap { feed -> [TemplateContext] in
                var links: [TemplateContext] = [["title": .text(feed.title), "url": .text(routes.url(feed.path)), "type": .text(feed.type)]]
                // Every Atom feed has a JSON Feed twin beside it.
                if feed.type == "application/atom+xml" {
                    links.append([
                        "title": .text("\(feed.title) (\(strings["json_feed"]))"),
                        "url": .text(routes.url(routes.jsonFeed(feed.path))),
                        "type": .text("application/feed+json"), "twin": .flag(true),
                    ])
                }
                return links
            }),
        ]
        if let image = page.image { c["image"] = .text(routes.absolute(image)) }
        if let source = page.source, let edit = editURL(source) { c["edit_url"] = .text(edit) }
        if !page.breadcrumbs.isEmpty {
            c["crumbs"] = .object(["items": .list(page.breadcrumbs.map {
                ["label": .text($0.label), "url": .text(routes.url($0.path))]
            })])
        }
        return c
    }

    /// The forge's edit page for a content file (GitHub and GitLab patterns).
    func editURL(_ file: String) -> String? {
        guard let repository = site.repository else { return nil }
        let path = "content/" + file
        let branch = site.repositoryBranch
        if repository.contains("gitlab") { return "\(repository)/-/edit/\(branch)/\(path)" }
        return "\(repository)/edit/\(branch)/\(path)"
    }

    /// The forge's new-file page with a name and text filled in.
    func newFileURL(folder: String, name: String, text: String) -> String? {
        guard let repository = site.repository else { return nil }
        let path = "content/" + folder
        let branch = site.repositoryBranch
        if repository.contains("gitlab") {
            return "\(repository)/-/new/\(branch)/\(path)?file_name=\(percentEncode(name))&content=\(percentEncode(text))"
        }
        return "\(repository)/new/\(branch)/\(path)?filename=\(percentEncode(name))&value=\(percentEncode(text))"
    }

    /// `<time>` values: machine-readable in the site's zone, and text for the site's language.
    func time(_ moment: Moment) -> TemplateContext {
        let civil = site.clock.civil(moment)
        if moment.isDateOnly {
            return ["iso": .text(civil.isoDate), "text": .text(strings.date(civil)), "date_only": .flag(true)]
        }
        return ["iso": .text(site.clock.rfc3339(moment)), "text": .text(strings.dateTime(civil))]
    }

    func time(_ moment: Moment?) -> TemplateValue? {
        moment.map { .object(time($0)) }
    }

    /// A member as a link with their avatar (a name without a link when the site has no
    /// member pages).
    func memberLink(_ id: String) -> TemplateContext {
        guard let m = memberModel(id) else { return ["name": .text(id)] }
        var c: TemplateContext = [
            "id": .text(id),
            "name": .text(m.name),
            "initials": .text(initials(m.name)),
        ]
        if site.has(.members) { c["url"] = .text(routes.url(routes.member(id))) }
        if let avatar = m.avatar, let image = imageOf(avatar) { c["avatar"] = .object(imageContext(image, alt: "")) }
        return c
    }

    func imageContext(_ image: PublishedImage, alt: String, sizes: String = "100vw") -> TemplateContext {
        let small = image.variants.first ?? image.display
        var c: TemplateContext = [
            "src": .text(routes.url(small.path)),
            "width": .number(small.width),
            "height": .number(small.height),
            "alt": .text(alt),
            "sizes": .text(sizes),
            "full": .text(routes.url(image.display.path)),
        ]
        if image.variants.count > 1 {
            c["srcset"] = .text(image.variants.map { "\(routes.url($0.path)) \($0.width)w" }.joined(separator: ", "))
        }
        return c
    }

    func categoryContext(_ category: Category) -> TemplateContext {
        [
            "key": .text(category.rawValue),
            "label": .text(strings["category_\(category.rawValue)"]),
            "color": .text(CategoryStyle.color(category)),
            "icon": .html(CategoryStyle.icon(category)),
        ]
    }

    func reportCard(_ id: String) -> TemplateContext {
        guard let r = reportModel(id) else { return [:] }
        let area = areaModel(r.area)
        return [
            "title": .text(r.title),
            "url": .text(routes.url(routes.report(id))),
            "category": .object(categoryContext(r.category)),
            "at": .object(time(r.at)),
            "author": .object(memberLink(r.author)),
            "area": .text(area?.name ?? r.area),
            "area_url": .text(routes.url(routes.area(r.area))),
            "summary": .text(summary(bodyOf(r.file)?.text ?? "", limit: 160)),
            "replies": .text(r.replies.isEmpty ? nil : strings.count("reply_count", r.replies.count)),
        ]
    }

    func albumCard(_ album: AlbumModel) -> TemplateContext {
        var c: TemplateContext = [
            "title": .text(album.title),
            "url": .text(routes.url(routes.album(album.key))),
            "group": .text(groupModel(album.group)?.name ?? album.group),
            "group_url": .text(routes.url(routes.group(album.group))),
            "photos": .text(strings.count("photo_count", album.photos.count)),
            "date": time(album.date),
        ]
        if let cover = album.cover, let image = imageOf(cover.path) {
            c["cover"] = .object(imageContext(image, alt: cover.caption ?? "", sizes: "(min-width: 60rem) 20rem, 50vw"))
        }
        return c
    }

    func goalContext(_ goal: GoalModel) -> TemplateContext {
        var c: TemplateContext = [
            "id": .text(goal.id),
            "anchor": .text("goal-\(goal.id)"),
            "title": .text(goal.title),
            "points": .text(strings.count("points_count", goal.points)),
            "url": .text(routes.url(routes.group(goal.group)) + "#goal-\(goal.id)"),
            "group": .text(groupModel(goal.group)?.name ?? goal.group),
            "group_url": .text(routes.url(routes.group(goal.group))),
            "added": time(goal.added),
            "completed_at": time(goal.completedAt),
        ]
        if let by = goal.addedBy { c["added_by"] = .object(memberLink(by)) }
        if let by = goal.completedBy { c["completed_by"] = .object(memberLink(by)) }
        if let html = bodyOf(goal.file)?.html, !html.isEmpty { c["body"] = .html(html) }
        return c
    }

    /// Text cut at a word boundary near `limit` characters.
    func summary(_ text: String, limit: Int) -> String {
        // Counting every character of a long text is slow; a text has at most as many
        // characters as bytes, and only the first `limit` are walked. Where the first `limit`
        // + 1 bytes are ASCII (and not a carriage return), each byte is a character.
        guard text.utf8.count > limit else { return text }
        let limitIndex: String.Index
        if text.utf8.prefix(limit + 1).allSatisfy({ $0 < 0x80 && $0 != 13 }) {
            limitIndex = text.utf8.index(text.startIndex, offsetBy: limit)
        } else {
            guard let index = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), index < text.endIndex
            else { return text }
            limitIndex = index
        }
        let cut = text[..<limitIndex]
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return String(cut[..<end]) + "…"
    }

    func initials(_ name: String) -> String {
        let words = name.split(separator: " ").filter { $0.first?.isUppercase ?? false }
        let letters = (words.isEmpty ? name.split(separator: " ") : words).compactMap(\.first)
        return String([letters.first, letters.count > 1 ? letters.last : nil].compactMap { $0 })
    }
}

/// Percent-encodes a query value (RFC 3986 unreserved characters pass).
func percentEncode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            out.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            let hex = Array("0123456789ABCDEF".unicodeScalars)
            out += "%"
            out.unicodeScalars.append(hex[Int(byte >> 4)])
            out.unicodeScalars.append(hex[Int(byte & 15)])
        }
    }
    return out
}
