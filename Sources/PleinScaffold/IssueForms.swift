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
        /// the site has the section it posts into.
        public static func forms(for site: SiteConfig) -> [IssueForm] {
            let member = Item(id: "member", control: .input, label: "Your member id",
                              description: "As in the address of your page on the site: /users/<id>/.", required: true)
            var forms: [IssueForm] = []
            if site.has(.reports) {
                let words = categoryLabels(site: site)
                forms.append(IssueForm(kind: .report, name: "New report", about: "Report something in the neighbourhood, with photos if you like.", items: [
                    member,
                    Item(id: "area", control: .input, label: "Area", description: "The area's id, as in its address on the site: /reports/<area>/ (often the postcode).", required: true),
                    Item(id: "title", control: .input, label: "Title", description: "A short title.", required: true),
                    Item(id: "category", control: .dropdown, label: "Category", description: "What kind of report it is.", required: true,
                         options: site.categories.map { words[$0]! }),
                    Item(id: "at", control: .input, label: "When", description: "When it happened: YYYY-MM-DD HH:MM. Leave it empty for when you post this.", required: false),
                    Item(id: "location", control: .input, label: "Where",
                         description: "Latitude, longitude, e.g. 52.3631, 4.9402 (a map app shows them when you press the place).", required: true),
                    Item(id: "text", control: .textarea, label: "What happened", description: "The report. Markdown works.", required: true),
                    Item(id: "photos", control: .textarea, label: "Photos",
                         description: "Drag or paste photos here (JPEG, PNG or WebP). They are published without their location data.", required: false),
                ]))
                forms.append(IssueForm(kind: .reply, name: "Reply to a report", about: "Reply to a report on the site.", items: [
                    member,
                    Item(id: "report", control: .input, label: "Report",
                         description: "The report's address on the site, or its id: <area>/<date>-<title>.", required: true),
                    Item(id: "text", control: .textarea, label: "Your reply", description: "Markdown works.", required: true),
                ]))
            }
            if site.has(.groups) {
                forms.append(IssueForm(kind: .event, name: "New event", about: "Announce something your group does: a dive trip, a study session.", items: [
                    member,
                    Item(id: "group", control: .input, label: "Group", description: "The group's id, as in its address on the site: /groups/<group>/.", required: true),
                    Item(id: "title", control: .input, label: "Title", description: "What happens.", required: true),
                    Item(id: "starts", control: .input, label: "Starts", description: "YYYY-MM-DD HH:MM, or YYYY-MM-DD for a whole day.", required: true),
                    Item(id: "ends", control: .input, label: "Ends", description: "YYYY-MM-DD HH:MM, or the last day. May be left empty.", required: false),
                    Item(id: "place", control: .input, label: "Place", description: "Where: a place the site knows, or any text.", required: false),
                    Item(id: "text", control: .textarea, label: "About it", description: "Markdown works.", required: false),
                ]))
            }
            return forms
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
    /// are kept.
    static func issueForms(at folder: String, site: SiteConfig) throws(Failure) -> [String] {
        let forms = IssueForm.forms(for: site)
        guard !forms.isEmpty else { return [] }
        var written: [String] = []
        for form in forms where !FileManager.default.fileExists(atPath: folder + "/" + form.kind.file) {
            written.append(try writeNew(folder + "/" + form.kind.file, Array(form.yaml.utf8)))
        }
        let config = folder + "/.github/ISSUE_TEMPLATE/config.yml"
        if !FileManager.default.fileExists(atPath: config) {
            written.append(try writeNew(config, Array("""
                # Written by `plein new ci`: members choose one of the forms (blank issues stay possible).
                blank_issues_enabled: true

                """.utf8)))
        }
        return written
    }
}
