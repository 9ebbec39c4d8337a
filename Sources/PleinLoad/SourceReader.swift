public import PleinCore
internal import Yams

/// Reads one content file into validated values: bytes → text → front matter → YAML → schema.
struct SourceReader {
    /// Text files above this size are refused (PRODUCT.md promises bounded work on hostile input).
    static let maxTextBytes = 2 * 1024 * 1024

    let fs: ContentFS
    let clock: SiteClock

    /// A validated file: its fields (or list entries), its Markdown body and its text.
    struct Read: Sendable {
        let root: ValueNode
        let body: Body
        let text: String
        /// The SHA-256 of the bytes read (what a kept record is matched with).
        let digest: [UInt8]
        var object: ObjectValue {
            if case .object(let o) = root.value { return o }
            return .empty
        }
        var entries: [ValueNode] {
            if case .list(let items) = root.value { return items }
            return []
        }
    }

    /// Reads `path` against `schema`. Returns nil when the file cannot be read at all; the
    /// diagnostics say why. Problems in single fields still give a result.
    func read(_ path: String, size: Int, schema: RecordSchema, into diagnostics: inout [Diagnostic]) -> (Read?, String?) {
        guard size <= Self.maxTextBytes else {
            diagnostics.append(Diagnostic(.fileTooLarge(bytes: size, limit: Self.maxTextBytes), in: path))
            return (nil, nil)
        }
        let bytes: [UInt8]
        do throws(ContentFS.Failure) {
            bytes = try fs.read(path)
        } catch {
            diagnostics.append(Diagnostic(.unreadable(error.reason), in: path))
            return (nil, nil)
        }
        let text: String
        switch TextDecoding.decode(bytes) {
        case .invalid(let span):
            diagnostics.append(Diagnostic(.notUTF8, in: path, at: span))
            return (nil, nil)
        case .empty:
            if schema.format == .frontMatter || schema.kind == "site" {
                diagnostics.append(Diagnostic(.emptyFile, in: path))
                return (nil, nil)
            }
            text = ""
        case .text(let decoded):
            text = decoded
            if let nul = bytes.firstIndex(of: 0) {
                diagnostics.append(Diagnostic(.nulBytes, in: path, at: Self.position(of: nul, in: bytes)))
            }
        }

        var yaml = text
        var yamlLine = 1
        var body = Body.empty
        if schema.format == .frontMatter {
            switch FrontMatter.split(text) {
            case .failure(let problem):
                diagnostics.append(Diagnostic(problem, in: path))
                return (nil, text)
            case .success(let parts):
                yaml = parts.yaml
                yamlLine = parts.yamlLine
                body = Body(markdown: CleanText.cleanValue(parts.body), line: parts.bodyLine)
            }
        }

        let node: Node?
        do {
            node = try Parser(yaml: yaml, resolver: .basic, constructor: .default, encoding: .utf8).singleRoot()
        } catch let error as YamlError {
            diagnostics.append(Self.diagnostic(for: error, in: path, lineOffset: yamlLine - 1, yaml: yaml))
            return (nil, text)
        } catch {
            diagnostics.append(Diagnostic(.yamlSyntax(String(describing: error)), in: path))
            return (nil, text)
        }
        var validator = Validator(file: path, clock: clock, lineOffset: yamlLine - 1)
        let root = validator.validateRoot(node, as: schema.root)
        diagnostics += validator.diagnostics
        return (Read(root: root, body: body, text: text, digest: Hashing.sha256(bytes)), text)
    }

    /// The line and column of the byte at `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> Span {
        let before = bytes[..<offset]
        let lineStart = before.lastIndex(of: 10).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).unicodeScalars.count + 1
        return Span(line: before.count { $0 == 10 } + 1, column: column)
    }

    /// Turns a Yams error into a diagnostic at the parser's position.
    static func diagnostic(for error: YamlError, in path: String, lineOffset: Int, yaml: String? = nil) -> Diagnostic {
        func at(_ mark: Mark) -> Span { Span(line: mark.line + lineOffset, column: mark.column) }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            if problem.hasPrefix("Maximum nesting level reached") {
                return Diagnostic(.yamlSyntax("lists and maps nest deeper than 1000 levels here"), in: path, at: at(mark))
            }
            if let yaml, let plain = YAMLExplain.explain(
                problem: problem, context: context.map { ($0.text, $0.mark.line, $0.mark.column) }, line: mark.line, column: mark.column, yaml: yaml) {
                return Diagnostic(.yamlMistake(plain.message, hint: plain.hint), in: path,
                                  at: Span(line: plain.line + lineOffset, column: plain.column, length: plain.length))
            }
            let text = [context?.text, problem].compactMap { $0 }.joined(separator: ": ")
            return Diagnostic(.yamlSyntax(text), in: path, at: at(mark))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return Diagnostic(.yamlSyntax("\(keys) appears more than once"), in: path, at: at(context.mark))
        case .reader(let problem, _, _, _):
            return Diagnostic(.yamlSyntax(problem), in: path)
        default:
            return Diagnostic(.yamlSyntax(String(describing: error)), in: path)
        }
    }
}
