public import PleinCore
internal import Yams

/// A YAML file that maps keys to text (a theme's interface strings).
public enum FlatTable {
    public static func read(_ text: String, file: String) -> ([String: String], [Diagnostic]) {
        do {
            guard let node = try Parser(yaml: text, resolver: .basic).singleRoot() else { return ([:], []) }
            guard case .mapping(let mapping) = node else {
                return ([:], [Diagnostic(.wrongType(expected: "a map of keys to text", found: "something else"), in: file)])
            }
            var table: [String: String] = [:]
            var problems: [Diagnostic] = []
            for (key, value) in mapping {
                guard let k = key.scalar?.string, let v = value.scalar?.string else {
                    let mark = value.mark ?? key.mark
                    problems.append(Diagnostic(
                        .wrongType(expected: "text", found: "a list or map"), in: file,
                        at: Span(line: mark?.line ?? 1, column: mark?.column ?? 1)))
                    continue
                }
                table[k] = v
            }
            return (table, problems)
        } catch let error as YamlError {
            return ([:], [SourceReader.diagnostic(for: error, in: file, lineOffset: 0)])
        } catch {
            return ([:], [Diagnostic(.yamlSyntax(String(describing: error)), in: file)])
        }
    }
}
