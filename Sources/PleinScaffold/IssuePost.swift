public import Foundation
public import PleinCore
import Yams

extension Scaffold {
    /// An issue made with one of plein's issue forms, read from the JSON GitHub gives: the
    /// `issues` event a workflow gets (`$GITHUB_EVENT_PATH`), or the issue itself as the REST API
    /// returns it. GitHub writes a form's answers into the issue's body, each under its field's
    /// label (`### Area`, a blank line, the answer; `_No response_` for none).
    public struct IssuePost: Sendable {
        public let number: Int
        public let kind: IssueForm.Kind
        /// The answers by the form's field ids; empty answers are left out.
        public let answers: [String: String]
        /// When the issue was opened (the time of a reply, and of a report that does not say).
        public let opened: String
        /// The GitHub login of the issue's author: the member it is from (`github` in their file).
        public let author: String
        /// The photos' addresses, in the order of the body, with the names
        /// `--list-attachments` gives them (`attachment-1`, …).
        public let attachments: [(name: String, url: String)]

        /// Reads `json`, with the forms as `folder` (the repository's root) holds them, or as
        /// plein writes them for `content` where it holds none.
        public static func read(_ json: Data, forms folder: String, content: Content) throws(Failure) -> IssuePost {
            guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
                throw Failure("this is not a GitHub issue's JSON: expected an object with the issue, as $GITHUB_EVENT_PATH or the REST API gives it")
            }
            let issue = (root["issue"] as? [String: Any]) ?? root
            let body = issue["body"] as? String ?? ""
            guard let number = issue["number"] as? Int, let opened = issue["created_at"] as? String else {
                throw Failure("this is not a GitHub issue's JSON: it has no number, body or created_at")
            }
            let labels = Set((issue["labels"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
            // Only what GitHub shows: a maintainer approves the rendered issue, not its source.
            let sections = Self.sections(of: Self.visible(body))
            let headings = Set(sections.map(\.label))
            let forms = IssueForm.forms(for: content).map { Self.asWritten($0, in: folder) }
            // The form's label says which it is; without it (a label the repository lacks is not
            // put on), the form all of whose required fields the issue answers.
            guard let form = forms.first(where: { labels.contains($0.kind.label) })
                ?? forms.first(where: { form in form.items.filter(\.required).allSatisfy { headings.contains($0.label) } }) else {
                throw Failure("issue #\(number) was not made with one of plein's forms (\(forms.map { "'\($0.name)'" }.joined(separator: ", "))): "
                              + "its text has none of their fields")
            }
            var answers: [String: String] = [:]
            var unanswered: [String] = []
            for item in form.items {
                guard let answer = sections.first(where: { $0.label == item.label })?.value, !answer.isEmpty else {
                    if item.required { unanswered.append("'\(item.label)'") }
                    continue
                }
                answers[item.id] = answer
            }
            guard unanswered.isEmpty else {
                throw Failure("issue #\(number) does not answer \(unanswered.joined(separator: ", ")), which a \(form.kind.rawValue) needs")
            }
            let attachments = try Self.attachments(in: answers["photos"] ?? "", number: number)
            let author = ((issue["user"] as? [String: Any])?["login"] as? String) ?? ""
            return IssuePost(number: number, kind: form.kind, answers: answers, opened: opened, author: author, attachments: attachments)
        }

        /// The body as GitHub shows it: without its HTML comments (`<!-- … -->`, and an unclosed
        /// one hides the rest), which GitHub does not render; a comment written inside a fenced
        /// code block is shown as code, and kept.
        static func visible(_ body: String) -> String {
            var out = "", fences = Fences(), inComment = false
            for line in body.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
                var rest = Substring(line)
                if !inComment, fences.isCode(rest) {
                    out += rest + "\n"
                    continue
                }
                var kept = ""
                while !rest.isEmpty {
                    if inComment {
                        guard let end = rest.range(of: "-->") else { rest = ""; break }
                        rest = rest[end.upperBound...]
                        inComment = false
                    } else if let start = rest.range(of: "<!--") {
                        kept += rest[..<start.lowerBound]
                        rest = rest[start.upperBound...]
                        inComment = true
                    } else {
                        kept += rest
                        rest = ""
                    }
                }
                // A line that was all comment leaves no blank line behind it.
                if !(kept.isEmpty && line.contains("<!--") || kept.isEmpty && inComment) { out += kept + "\n" }
            }
            return out
        }

        /// The body's answers: the text under each `### ` heading, trimmed.
        static func sections(of body: String) -> [(label: String, value: String)] {
            var out: [(label: String, value: String)] = []
            var fences = Fences()
            for line in body.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
                // A `### ` line inside a fenced code block is code, not a field's label.
                if !fences.isCode(line), line.hasPrefix("### ") {
                    out.append((String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces), ""))
                } else if !out.isEmpty {
                    out[out.count - 1].value += (out[out.count - 1].value.isEmpty ? "" : "\n") + line
                }
            }
            return out.map { section in
                let value = section.value.trimmingCharacters(in: .whitespacesAndNewlines)
                return (section.label, value == "_No response_" ? "" : value)
            }
        }

        /// The text as GitHub shows its images: code (fenced and inline) left out, every HTML tag
        /// but `<img>` left out whole with its attributes (an `<img …>` written in another tag's
        /// title shows nothing), and each `<img>` as `<img src="…">` with the source it shows.
        static func shownImages(_ text: String) -> String {
            var out = "", fences = Fences()
            for line in text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
                if !fences.isCode(line) { out += shownLine(Array(line)) }
                out += "\n"
            }
            return out
        }

        /// Which lines are fenced code (between ``` or ~~~ lines, the fences' own lines included),
        /// line after line.
        struct Fences {
            private var open: String?

            mutating func isCode(_ line: Substring) -> Bool {
                let trimmed = line.drop { $0 == " " }
                if let fence = open {
                    if trimmed.hasPrefix(fence) { open = nil }
                    return true
                }
                guard trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") else { return false }
                open = String(trimmed.prefix(3))
                return true
            }
        }

        private static func shownLine(_ c: [Character]) -> String {
            var out = "", i = 0
            while i < c.count {
                if c[i] == "`" {
                    // A code span: the same run of backticks closes it.
                    var run = 0
                    while i + run < c.count, c[i + run] == "`" { run += 1 }
                    var j = i + run, closed: Int?
                    while j < c.count {
                        var other = 0
                        while j + other < c.count, c[j + other] == "`" { other += 1 }
                        if other == run { closed = j + other; break }
                        j += max(other, 1)
                    }
                    if let closed { out += " "; i = closed; continue }
                    out += String(c[i..<(i + run)]); i += run; continue
                }
                if c[i] == "<", i + 1 < c.count, c[i + 1].isLetter || c[i + 1] == "/" || c[i + 1] == "!" {
                    // A tag, to its `>` outside quotes.
                    var j = i + 1, quote: Character?, attributes: [String: String] = [:], name = ""
                    while j < c.count, c[j].isLetter || c[j].isNumber || c[j] == "/" || c[j] == "!" { name.append(c[j]); j += 1 }
                    var key = "", value = "", inValue = false
                    func keep() { if !key.isEmpty { attributes[key.lowercased()] = value }; key = ""; value = ""; inValue = false }
                    while j < c.count {
                        let ch = c[j]
                        if let q = quote {
                            if ch == q { quote = nil; keep() } else { value.append(ch) }
                        } else if ch == ">" {
                            keep(); break
                        } else if inValue {
                            if ch == "\"" || ch == "'", value.isEmpty { quote = ch } else if ch.isWhitespace { keep() } else { value.append(ch) }
                        } else if ch == "=" {
                            inValue = true
                        } else if ch.isWhitespace || ch == "/" {
                            if !key.isEmpty, !inValue { keep() }
                        } else {
                            key.append(ch)
                        }
                        j += 1
                    }
                    if name.lowercased() == "img", let source = attributes["src"] { out += "<img src=\"\(source)\">" } else { out += " " }
                    i = min(j + 1, c.count)
                    continue
                }
                out.append(c[i])
                i += 1
            }
            return out
        }

        /// The form with the labels its file in the repository gives its fields (an owner may have
        /// translated them); plein's own where the file is missing or unreadable.
        static func asWritten(_ form: IssueForm, in folder: String) -> IssueForm {
            guard let text = try? String(contentsOfFile: folder + "/" + form.kind.file, encoding: .utf8),
                  let yaml = try? Yams.load(yaml: text) as? [String: Any], let body = yaml["body"] as? [[String: Any]] else { return form }
            var labels: [String: String] = [:]
            for entry in body {
                if let id = entry["id"] as? String, let label = (entry["attributes"] as? [String: Any])?["label"] as? String { labels[id] = label }
            }
            let items = form.items.map { item in
                IssueForm.Item(id: item.id, control: item.control, label: labels[item.id] ?? item.label, description: item.description,
                     required: item.required, options: item.options)
            }
            return IssueForm(kind: form.kind, name: (yaml["name"] as? String) ?? form.name, about: form.about, items: items)
        }

        /// The images in the answer about photos (`![…](…)` or `<img src="…">`), at most 10, each
        /// at its normalised address (`Attachment.normalised`).
        static func attachments(in given: String, number: Int) throws(Failure) -> [(name: String, url: String)] {
            let text = shownImages(given)
            var urls: [String] = []
            let patterns = [#"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?[^)]*\)"#, #"<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']"#]
            var found: [(Int, String)] = []
            for pattern in patterns {
                let regex = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
                for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let range = Range(match.range(at: 1), in: text) else { continue }
                    found.append((match.range.location, String(text[range])))
                }
            }
            for (_, given) in found.sorted(by: { $0.0 < $1.0 }) {
                guard let url = Attachment.normalised(given) else {
                    throw Failure("issue #\(number): the photo \(given) is not an attachment of GitHub; drag the photo itself into the issue")
                }
                if !urls.contains(url) { urls.append(url) }
            }
            guard urls.count <= 10 else { throw Failure("issue #\(number) has \(urls.count) photos; a report takes at most 10 (an album takes more)") }
            return urls.enumerated().map { ("attachment-\($0.offset + 1)", $0.element) }
        }
    }

    /// Writes the content file an issue asks for (a report with its photos, a reply, an event),
    /// checked as `plein new` checks its own: every answer plein cannot take is said at once, in
    /// the form's words, before anything is written. The member is the issue's author (`github`
    /// in their file). The photos are read from `attachments`, the folder the workflow downloaded
    /// them into. Returns the files written.
    public func post(_ issue: IssuePost, attachments folder: String?) throws(Failure) -> [String] {
        let a = issue.answers
        var problems: [String] = []
        func label(_ id: String) -> String { IssueForm.forms(for: content).first { $0.kind == issue.kind }?.items.first { $0.id == id }?.label ?? id }
        func attempt<T>(_ field: String?, _ work: () throws(Failure) -> T) -> T? {
            do { return try work() } catch {
                problems.append((field.map { "'\(label($0))': " } ?? "") + error.description)
                return nil
            }
        }
        // Who posts: the issue's author, known by the account in their member file; never an id
        // written in the issue (anyone can write any id, also as a heading inside their text).
        let member = IssueAnswers.member(login: issue.author, content: content)?.id
        if member == nil {
            let login = issue.author.isEmpty ? "the issue's author" : "@" + issue.author
            problems.append("\(login) is not a member of the site: a maintainer adds `github: \(issue.author.isEmpty ? "<their login>" : issue.author)` "
                            + "to their file in content/users/ (plein new member makes one), then labels the issue again")
        }
        func finish<T>(_ value: T?) throws(Failure) -> T {
            guard problems.isEmpty, let value else {
                throw Failure("issue #\(issue.number) cannot be published as it is; answer again in the issue (edit it), then a maintainer labels it again:\n"
                              + problems.map { "  - " + $0 }.joined(separator: "\n"))
            }
            return value
        }
        switch issue.kind {
        case .report:
            let area = IssueAnswers.record(a["area"] ?? "", among: content.areas.map { ($0.id, $0.name) })
            if !Slug.isValid(area) { problems.append("'\(label("area"))': '\(a["area"] ?? "")' is not an area of the site") }
            let category = IssueForm.category(a["category"] ?? "", site: content.site)
            if !content.site.categories.contains(where: { $0.rawValue == category }) {
                let words = IssueForm.categoryLabels(site: content.site)
                problems.append("'\(label("category"))': '\(a["category"] ?? "")' is not one of this site's categories: "
                                + content.site.categories.map { "'\(words[$0]!)'" }.joined(separator: ", "))
            }
            var position: Coordinate?
            switch IssueAnswers.position(a["location"] ?? "", content: content) {
            case .at(let c, _): position = c
            case .unknown(let why): problems.append("'\(label("location"))': " + why)
            }
            let at = a["at"].map(Self.isoTime) ?? issue.opened
            _ = attempt("at") { () throws(Failure) in try checkTime(at) }
            let title = a["title"] ?? ""
            _ = attempt("title") { () throws(Failure) in try slug(title, what: "title") }
            var files: [(name: String, bytes: [UInt8])] = []
            for (index, attachment) in issue.attachments.enumerated() {
                guard let folder, let data = FileManager.default.contents(atPath: folder + "/" + attachment.name) else {
                    problems.append("photo \(index + 1) (\(attachment.url)) was not downloaded: give the folder it is in with --attachments")
                    continue
                }
                guard let ext = Self.imageType(Array(data.prefix(16))) else {
                    problems.append("photo \(index + 1) (\(attachment.url)) is not a JPEG, PNG or WebP image; a report publishes only those")
                    continue
                }
                files.append(("photo-\(index + 1).\(ext)", Array(data)))
            }
            let (author, c) = (try finish(member), try finish(position))
            var body = a["text"] ?? ""
            if !files.isEmpty {
                body += "\n\n" + files.map { "![\(Self.altText(title))](\($0.name))" }.joined(separator: "\n\n")
            }
            let path = try report(area: area, title: title, category: category, author: author,
                                  lat: (c.lat * 1e6).rounded() / 1e6, lon: (c.lon * 1e6).rounded() / 1e6, at: at, body: body, files: files)
            return [path] + files.map { (path as NSString).deletingLastPathComponent + "/" + $0.name }
        case .reply:
            let report = Self.reportID(a["report"] ?? "")
            if !content.reports.contains(where: { $0.id == report }) {
                let hint = Suggestions.closest(to: report, in: content.reports.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append("'\(label("report"))': '\(a["report"] ?? "")' is no report of the site\(hint): copy the report's address from your browser")
            }
            return [try reply(report: report, author: try finish(member), at: issue.opened, body: a["text"] ?? "")]
        case .event:
            let group = IssueAnswers.record(a["group"] ?? "", among: content.groups.map { ($0.id, $0.name) })
            _ = attempt("group") { () throws(Failure) in try checkGroup(group) }
            _ = attempt("starts") { () throws(Failure) in try checkTime(Self.isoTime(a["starts"] ?? "")) }
            if let ends = a["ends"] { _ = attempt("ends") { () throws(Failure) in try checkTime(Self.isoTime(ends)) } }
            _ = attempt("title") { () throws(Failure) in try slug(a["title"] ?? "", what: "title") }
            return [try event(group: group, title: a["title"] ?? "", starts: Self.isoTime(a["starts"] ?? ""),
                              ends: a["ends"].map(Self.isoTime), place: a["place"], by: try finish(member), body: a["text"] ?? "")]
        }
    }

    /// `52.3631, 4.9402`, `52.3631 4.9402` or `geo:52.3631,4.9402`.
    static func coordinate(_ text: String) -> (Double, Double)? {
        var t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.lowercased().hasPrefix("geo:") { t = String(t.dropFirst(4)) }
        let parts = t.split(whereSeparator: { $0 == "," || $0 == " " || $0 == ";" }).compactMap { Double($0) }
        guard parts.count == 2, (-90...90).contains(parts[0]), (-180...180).contains(parts[1]) else { return nil }
        return (parts[0], parts[1])
    }

    /// `2026-11-21 14:30` as plein reads times (`2026-11-21T14:30`).
    static func isoTime(_ text: String) -> String {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.count > 10, let space = t.firstIndex(of: " "), t.distance(from: t.startIndex, to: space) == 10 else { return t }
        return t.replacingCharacters(in: space...space, with: "T")
    }

    /// An id as a member may give it: `/groups/zeehond/` or `zeehond`.
    static func trimmedID(_ text: String) -> String {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/")
        return parts.last.map(String.init) ?? ""
    }

    /// A report's id from its address on the site or the id itself.
    static func reportID(_ text: String) -> String {
        let t = text.trimmingCharacters(in: .whitespaces)
        let path = t.range(of: "/reports/").map { String(t[$0.upperBound...]) } ?? t
        let parts = path.split(separator: "/").prefix(2)
        return parts.joined(separator: "/")
    }

    /// The photo's description for blind readers: the report's title (the form asks for none).
    static func altText(_ title: String) -> String {
        title.filter { !"[]\\".contains($0) }
    }

    /// The extension of a JPEG, PNG or WebP image, by its first bytes.
    static func imageType(_ head: [UInt8]) -> String? {
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return "webp" }
        return nil
    }
}
