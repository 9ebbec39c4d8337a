import Foundation
public import PleinCore
import PleinLoad
import PleinMustache
public import PleinRender

/// The theme stage: reads a theme folder (or the built-in theme with a site's changes over it),
/// collecting every problem.
public enum ThemeLoader {
    /// With `previous` (the theme loaded before from the same folder), a template or a table of
    /// texts whose text is the same is taken from it, not parsed again (it loaded without an
    /// error, so the same text has none): an edit of one template parses that one.
    public static func load(_ fs: ContentFS, language: Language, reusing previous: Theme? = nil) -> (Theme?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var library = TemplateLibrary()
        var origins: [String: String] = [:]
        var sources: [String: String] = [:]
        var templates: [String: String] = [:]
        var assets: [String: Theme.Asset] = [:]
        var table: [String: String] = [:]
        var usedKeys: [(key: String, file: String, span: Span)] = []
        let root = fs.displayRoot

        func display(_ path: String) -> String { root.isEmpty ? path : root + "/" + path }
        func files(_ directory: String) -> [String] {
            guard let entries = try? fs.list(directory) else { return [] }
            return entries.flatMap { entry -> [String] in
                if entry.name.hasPrefix(".") { return [] }
                let path = directory.isEmpty ? entry.name : directory + "/" + entry.name
                return entry.kind == .directory ? files(path) : [path]
            }
        }

        for path in files("") {
            let shown = display(path)
            guard let bytes = try? fs.read(path) else {
                diagnostics.append(Diagnostic(.unreadable("cannot read"), in: shown))
                continue
            }
            if path.hasPrefix("assets/") {
                let name = String(path.dropFirst("assets/".count))
                let (stem, ext) = FileName.split(name)
                let hash = String(Hashing.sha256Hex(bytes).prefix(10))
                assets[name] = Theme.Asset(output: Routes.asset(stem: stem, hash: hash, extension: ext), bytes: bytes)
                continue
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                diagnostics.append(Diagnostic(.notUTF8, in: shown))
                continue
            }
            if path.hasSuffix(".mustache") {
                sources[shown] = text
                let name = FileName.split(String(path.split(separator: "/").last!)).stem
                if let other = origins[name] {
                    diagnostics.append(Diagnostic(.duplicateTemplate(name, other: other), in: shown))
                    continue
                }
                origins[name] = shown
                templates[name] = text
                do {
                    if let previous, previous.templates[name] == text, let parsed = previous.library.template(named: name) {
                        library.register(parsed, named: name)
                    } else {
                        library.register(try Template(text), named: name)
                    }
                } catch {
                    diagnostics.append(Diagnostic(
                        .templateSyntax(error.message), in: shown, at: Span(line: error.line, column: error.column)))
                }
                usedKeys += textKeys(in: text).map { ($0.key, shown, $0.span) }
            } else if path == "i18n/\(language.rawValue).yaml" {
                sources[shown] = text
                if let previous, previous.strings.language == language, previous.sources[shown] == text {
                    table = previous.strings.table
                } else {
                    let (read, problems) = FlatTable.read(text, file: shown)
                    table = read
                    diagnostics += problems
                }
            }
        }

        let tablePath = display("i18n/\(language.rawValue).yaml")
        if sources[tablePath] == nil {
            diagnostics.append(Diagnostic(.missingFile("i18n/\(language.rawValue).yaml"), in: tablePath))
        } else {
            for use in usedKeys where table[use.key] == nil {
                diagnostics.append(Diagnostic(.missingText(use.key, language: language.rawValue), in: use.file, at: use.span))
            }
            for key in Strings.requiredKeys where table[key] == nil {
                diagnostics.append(Diagnostic(.missingText(key, language: language.rawValue), in: tablePath))
            }
        }
        for (name, file) in Theme.requiredTemplates where origins[name] == nil {
            diagnostics.append(Diagnostic(.missingTemplate(name), in: display(file)))
        }
        guard !diagnostics.hasErrors else { return (nil, diagnostics) }
        let theme = Theme(
            library: library, strings: Strings(language: language, table: table), assets: assets, sources: sources,
            templates: templates)
        return (theme, diagnostics)
    }

    /// The `t.<key>` names a template uses, with their places. (Looked for on bytes: a
    /// template's lines are long and its `t.`s few; the key and its column are read as
    /// characters where one is found.)
    static func textKeys(in text: String) -> [(key: String, span: Span)] {
        var found: [(String, Span)] = []
        let bytes = Array(text.utf8)
        var lineStart = 0, line = 1
        var index = 0
        while index + 1 < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                (line, lineStart, index) = (line + 1, index + 1, index + 1)
                continue
            }
            guard byte == UInt8(ascii: "t"), bytes[index + 1] == UInt8(ascii: "."), index > lineStart else {
                index += 1
                continue
            }
            switch bytes[index - 1] {
            case UInt8(ascii: "{"), UInt8(ascii: " "), UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "("): break
            default:
                index += 2
                continue
            }
            let rest = String(decoding: bytes[(index + 2)...].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            let key = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !key.isEmpty {
                let column = String(decoding: bytes[lineStart..<index], as: UTF8.self).count + 1
                found.append((String(key), Span(line: line, column: column, length: key.count + 2)))
            }
            index += 2
        }
        return found
    }

}
