import PleinCheck
import PleinCore
import PleinLoad
import PleinRender

/// The check stage: every problem of the content, its image headers and the theme, with paths
/// as the user sees them, and the texts the diagnostics point into. `plein check`, `find`,
/// `build` and `serve` all see the same list.
enum CheckStage {
    struct Result {
        let diagnostics: [Diagnostic]
        /// The texts of the files with a diagnostic, keyed like the diagnostics' paths.
        let sources: [String: String]
    }

    /// The rules that span records, run over the whole content, or again over the reports a
    /// change names only (their files' problems replace those in `last`).
    static func rules(_ content: Content, change: ContentChange, last: [Diagnostic]?) -> [Diagnostic] {
        guard let changed = change.files, let last else { return Checker.check(content) }
        // (No file changed, the theme did: the rules find what they found.)
        if changed.isEmpty { return last }
        let (files, found) = Checker.check(content, records: changed, added: change.added)
        return last.filter { !files.contains($0.file) } + found
    }

    /// `checked`: what `rules` found.
    static func run(_ content: Content, checked: [Diagnostic], loading: [Diagnostic], images: ImageStage, theme: Theme?, themeProblems: [Diagnostic]) -> Result {
        let root = content.displayRoot
        var found = loading + checked + images.headerDiagnostics(maxPixels: content.site.maxPixels)
        if let theme { found += labelProblems(content, theme: theme) }
        let diagnostics = found.sorted().map { $0.under(root) } + themeProblems
        var texts: [String: String] = [:]
        for file in Set(diagnostics.map(\.file)) {
            if file.hasPrefix(root + "/"), let text = content.sources[String(file.dropFirst(root.count + 1))] {
                texts[file] = text
            } else if let text = theme?.sources[file] {
                texts[file] = text
            }
        }
        return Result(diagnostics: diagnostics, sources: texts)
    }

    /// `site.yaml` labels for texts the theme does not have, and labels that rename a word the
    /// theme's other texts still say ("Friends" renamed, "No friends added yet." left as it was).
    static func labelProblems(_ content: Content, theme: Theme) -> [Diagnostic] {
        let table = theme.strings.table
        let keys = Array(table.keys)
        let lines = content.sources["site.yaml"]?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        func span(_ key: String) -> Span {
            let line = lines.firstIndex { $0.drop { $0 == " " }.hasPrefix(key + ":") }.map { $0 + 1 } ?? 1
            let column = line > 1 || lines.first?.drop(while: { $0 == " " }).hasPrefix(key + ":") == true
                ? (lines[line - 1].prefix { $0 == " " }.count + 1) : 1
            return Span(line: line, column: column, length: key.count)
        }
        let labels = content.site.labels
        return labels.keys.sorted().compactMap { key in
            guard let word = table[key] else {
                return Diagnostic(.unknownLabel(key, suggestion: Suggestions.closest(to: key, in: keys)), in: "site.yaml", at: span(key))
            }
            // Only a label of a word or two (a menu entry, a heading) has partners to keep in step.
            guard labels[key] != word, word.split(separator: " ").count <= 2, !word.contains("{") else { return nil }
            let partners = keys.filter { $0 != key && labels[$0] == nil && Self.says(table[$0]!, word) }.sorted()
            guard !partners.isEmpty else { return nil }
            return Diagnostic(.labelLeavesPartners(key, word: word, partners: partners), in: "site.yaml", at: span(key))
        }
    }

    /// Whether `text` holds `word` as a whole word or words, ignoring case.
    static func says(_ text: String, _ word: String) -> Bool {
        let text = Array(text.lowercased()), word = Array(word.lowercased())
        guard !word.isEmpty, text.count >= word.count else { return false }
        for start in 0...(text.count - word.count) where text[start..<(start + word.count)].elementsEqual(word) {
            let before = start == 0 || !text[start - 1].isLetter
            let after = start + word.count == text.count || !text[start + word.count].isLetter
            if before && after { return true }
        }
        return false
    }
}
