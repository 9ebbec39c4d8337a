import Foundation
public import PleinCore
import PleinTheme
import Yams

extension Scaffold {
    /// A GitHub issue form members post with from a phone (`.github/ISSUE_TEMPLATE/`), and what
    /// `plein new from-issue` reads back from an issue made with it: the answers under the
    /// labels of its fields, as GitHub writes them into the issue's body.
    public struct IssueForm: Sendable {
        public enum Kind: String, Sendable, CaseIterable {
            case report, reply, event

            /// The form's file, and the label it puts on its issues.
            public var file: String { ".github/ISSUE_TEMPLATE/plein-\(rawValue).yml" }
            public var label: String { "plein-\(rawValue)" }
        }

        public struct Item: Sendable {
            public enum Control: String, Sendable { case input, textarea, dropdown }
            public let id: String
            public let control: Control
            public let label: String
            public let description: String
            public let required: Bool
            public var options: [String] = []
        }

        public let kind: Kind
        public let name: String
        public let about: String
        public let items: [Item]

        /// The forms for a site: a report (with its categories), a reply, an event; each only when
        /// the site has the section it posts into. No form asks who posts: the issue's author is
        /// the member whose file names their GitHub account (`github`). Areas and groups are
        /// offered by their names, and "Where" takes the site's own places by name.
        public static func forms(for content: Content) -> [IssueForm] {
            let site = content.site
            var forms: [IssueForm] = []
            if site.has(.reports) {
                let words = categoryLabels(site: site)
                let areas = areaOptions(content)
                let area = areas.isEmpty
                    ? Item(id: "area", control: .input, label: "Area", description: "The area's id, as in its address on the site: /reports/<area>/ (often the postcode).", required: true)
                    : Item(id: "area", control: .dropdown, label: "Area", description: "The part of the neighbourhood it is in.", required: true, options: areas)
                forms.append(IssueForm(kind: .report, name: "New report", about: "Report something in the neighbourhood, with photos if you like.", items: [
                    area,
                    Item(id: "title", control: .input, label: "Title", description: "A short title.", required: true),
                    Item(id: "category", control: .dropdown, label: "Category", description: "What kind of report it is.", required: true,
                         options: site.categories.map { words[$0]! }),
                    Item(id: "at", control: .input, label: "When", description: "When it happened: YYYY-MM-DD HH:MM. Leave it empty for when you post this.", required: false),
                    Item(id: "location", control: .input, label: "Where", description: whereSaid(content), required: true),
                    Item(id: "text", control: .textarea, label: "What happened", description: "The report. Markdown works.", required: true),
                    Item(id: "photos", control: .textarea, label: "Photos",
                         description: "Drag or paste photos here (JPEG, PNG or WebP). They are published without their location data.", required: false),
                ]))
                forms.append(IssueForm(kind: .reply, name: "Reply to a report", about: "Reply to a report on the site.", items: [
                    Item(id: "report", control: .input, label: "Report",
                         description: "The report's address on the site (copy it from your browser), or its id: <area>/<date>-<title>.", required: true),
                    Item(id: "text", control: .textarea, label: "Your reply", description: "Markdown works.", required: true),
                ]))
            }
            if site.has(.groups) {
                let groups = groupOptions(content)
                let group = groups.isEmpty
                    ? Item(id: "group", control: .input, label: "Group", description: "The group's id, as in its address on the site: /groups/<group>/.", required: true)
                    : Item(id: "group", control: .dropdown, label: "Group", description: "The group that organises it.", required: true, options: groups)
                forms.append(IssueForm(kind: .event, name: "New event", about: "Announce something your group does: a street party, a work day, a meeting.", items: [
                    group,
                    Item(id: "title", control: .input, label: "Title", description: "What happens.", required: true),
                    Item(id: "starts", control: .input, label: "Starts", description: "YYYY-MM-DD HH:MM, or YYYY-MM-DD for a whole day.", required: true),
                    Item(id: "ends", control: .input, label: "Ends", description: "YYYY-MM-DD HH:MM, or the last day. May be left empty.", required: false),
                    Item(id: "place", control: .input, label: "Place", description: placeSaid(content), required: false),
                    Item(id: "text", control: .textarea, label: "About it", description: "Markdown works.", required: false),
                ]))
            }
            return forms
        }

        /// A dropdown's option for a record with a name and an id: `Redland (bs6)`, or the id alone.
        public static func option(name: String?, id: String) -> String {
            guard let name, !name.isEmpty, name.lowercased() != id.lowercased() else { return id }
            return "\(name) (\(id))"
        }

        /// The areas a report may be in, by name (the areas the site has: folders of `reports/`).
        static func areaOptions(_ content: Content) -> [String] {
            content.areas.sorted { ($0.name ?? $0.id).lowercased() < ($1.name ?? $1.id).lowercased() }.map { option(name: $0.name, id: $0.id) }
        }

        /// The groups an event may be posted to: the public ones (a form is public; the names of
        /// unlisted, members-only and private groups are not for everyone).
        static func groupOptions(_ content: Content) -> [String] {
            content.groups.filter { $0.visibility == .public }.sorted { $0.name.lowercased() < $1.name.lowercased() }.map { option(name: $0.name, id: $0.id) }
        }

        /// What "Where" takes, with examples from the site's own places.
        static func whereSaid(_ content: Content) -> String {
            let names = content.places.prefix(2).map(\.name)
            let example = content.places.first.map(\.coordinate) ?? content.areas.lazy.compactMap(\.center).first
            var ways: [String] = []
            if !names.isEmpty { ways.append("a place the site knows (" + names.map { "'\($0)'" }.joined(separator: ", ") + "), or a street near one") }
            ways.append("a link from a map app (Google Maps, OpenStreetMap, Apple Maps: share the place, copy the link)")
            ways.append("or latitude, longitude" + (example.map { String(format: " (e.g. %.4f, %.4f)", $0.lat, $0.lon) } ?? " as a map app shows them when you press the place"))
            return "Where it is: " + ways.joined(separator: "; ") + "."
        }

        /// What an event's "Place" takes.
        static func placeSaid(_ content: Content) -> String {
            let names = content.places.prefix(2).map { "'\($0.name)'" }
            return names.isEmpty ? "Where: any text (an address, a hall, a park)." : "Where: a place the site knows (\(names.joined(separator: ", "))), or any text."
        }

        /// The site's categories as its pages name them (its own `labels`, else the theme's words in
        /// its language), so members choose from the words they know.
        public static func categoryLabels(site: SiteConfig) -> [Category: String] {
            let theme = BuiltInTheme.files["i18n/\(site.language.rawValue).yaml"]
                .flatMap { try? Yams.load(yaml: String(decoding: $0, as: UTF8.self)) as? [String: Any] } ?? [:]
            var labels: [Category: String] = [:]
            for category in site.categories {
                let key = "category_" + category.rawValue
                labels[category] = site.labels[key] ?? theme[key] as? String ?? category.rawValue
            }
            return labels
        }

        /// The category an answer names: its id, or its label on the site.
        public static func category(_ answer: String, site: SiteConfig) -> String {
            let given = answer.trimmingCharacters(in: .whitespaces).lowercased()
            let labels = categoryLabels(site: site)
            return site.categories.first { $0.rawValue == given || labels[$0]?.lowercased() == given }?.rawValue ?? given
        }

        /// The form as GitHub reads it (`.github/ISSUE_TEMPLATE/*.yml`).
        public var yaml: String {
            var out = """
                # Written by `plein new ci`. An issue made with this form is published once a maintainer
                # adds the label "approved": a workflow (.github/workflows/plein-issues.yml) turns it into
                # a pull request. The labels below may be translated: plein reads them from this file.
                name: \(quote(name))
                description: \(quote(about))
                title: \(quote(name + ": "))
                labels: [\(quote(kind.label))]
                body:
                  - type: markdown
                    attributes:
                      value: \(quote("A maintainer reads this before it is published. Everything you write here is public."))

                """
            for item in items {
                out += """
                      - type: \(item.control.rawValue)
                        id: \(item.id)
                        attributes:
                          label: \(quote(item.label))
                          description: \(quote(item.description))

                    """
                if !item.options.isEmpty {
                    out += "      options:\n" + item.options.map { "        - \(quote($0))\n" }.joined()
                }
                out += "    validations:\n      required: \(item.required)\n"
            }
            return out
        }
    }

    /// Writes the issue forms into `folder` (the root of the site's repository). Existing files
    /// are kept; with `update`, those nobody changed since plein wrote them are written anew (the
    /// site's areas, groups and places may have changed), and the others are said.
    static func issueForms(at folder: String, content: Content, update: Bool) throws(Failure) -> (files: [String], next: [String]) {
        let forms = IssueForm.forms(for: content)
        guard !forms.isEmpty else { return ([], []) }
        var written: [String] = [], next: [String] = []
        let config = """
            # Written by `plein new ci`: members choose one of the forms (blank issues stay possible).
            blank_issues_enabled: true

            """
        for (relative, text) in forms.map({ ($0.kind.file, $0.yaml) }) + [(".github/ISSUE_TEMPLATE/config.yml", config)] {
            let path = folder + "/" + relative
            let outcome = try Fingerprint.write(text, at: path, update: update)
            if outcome == .written || outcome == .updated { written.append(path) }
            if let said = Fingerprint.said(outcome, relative) { next.append(said) }
        }
        return (written, next)
    }
}
