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
        guard case .reports(let ids) = change, let last else { return Checker.check(content) }
        let files = content.reports(ids).reduce(into: Set<String>()) { $0.formUnion(Checker.files(of: $1)) }
        return last.filter { !files.contains($0.file) } + Checker.check(content, reports: ids)
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

    /// `site.yaml` labels for texts the theme does not have.
    static func labelProblems(_ content: Content, theme: Theme) -> [Diagnostic] {
        let keys = Array(theme.strings.table.keys)
        let lines = content.sources["site.yaml"]?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        return content.site.labels.keys.sorted().filter { theme.strings.table[$0] == nil }.map { key in
            let line = lines.firstIndex { $0.drop { $0 == " " }.hasPrefix(key + ":") }.map { $0 + 1 } ?? 1
            let column = line > 1 || lines.first?.drop(while: { $0 == " " }).hasPrefix(key + ":") == true
                ? (lines[line - 1].prefix { $0 == " " }.count + 1) : 1
            return Diagnostic(.unknownLabel(key, suggestion: Suggestions.closest(to: key, in: keys)), in: "site.yaml",
                              at: Span(line: line, column: column, length: key.count))
        }
    }
}
