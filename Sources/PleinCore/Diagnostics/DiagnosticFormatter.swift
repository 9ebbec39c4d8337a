import PleinText

/// Turns diagnostics into text for people (compiler style) or JSON for tools.
public struct DiagnosticFormatter: Sendable {
    /// File texts by the path diagnostics show, for printing the offending line.
    public let sources: [String: String]
    public let color: Bool

    public init(sources: [String: String], color: Bool = false) {
        self.sources = sources
        self.color = color
    }

    /// `path:line:column: error: message`, the source line with a caret, and the suggestion.
    public func text(_ d: Diagnostic) -> String {
        let severity = d.severity == .error ? paint("error", "1;31") : paint("warning", "1;35")
        var out = paint("\(d.file):\(d.span.line):\(d.span.column):", "1") + " \(severity): " + paint(d.message, "1")
        if let line = sourceLine(d.file, d.span.line) {
            let number = String(d.span.line)
            let gutter = String(repeating: " ", count: number.count)
            let scalars = Array(line.unicodeScalars)
            let start = min(max(0, d.span.column - 1), scalars.count)
            var pad = ""
            for scalar in scalars[0..<start] { pad += scalar == "\t" ? "\t" : " " }
            let length = max(1, min(d.span.length, scalars.count - start))
            let marker = "^" + String(repeating: "~", count: length - 1)
            out += "\n \(gutter) |"
            out += "\n \(number) | \(line)"
            out += "\n \(gutter) | \(pad)\(paint(marker, d.severity == .error ? "1;31" : "1;35"))"
        }
        if let suggestion = d.suggestion {
            let gutter = String(repeating: " ", count: String(d.span.line).count)
            out += "\n \(gutter) = \(suggestion)"
        }
        return out
    }

    /// All diagnostics as text, then a summary line.
    public func report(_ diagnostics: [Diagnostic]) -> String {
        var out = diagnostics.map(text).joined(separator: "\n\n")
        if !diagnostics.isEmpty { out += "\n\n" }
        out += summary(diagnostics)
        return out
    }

    public func summary(_ diagnostics: [Diagnostic]) -> String {
        let e = diagnostics.errorCount, w = diagnostics.warningCount
        if e == 0 && w == 0 { return "no problems found" }
        let files = Set(diagnostics.map(\.file)).count
        return "\(e) error\(e == 1 ? "" : "s") and \(w) warning\(w == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s")"
    }

    /// Machine-readable: `{"errors": n, "warnings": n, "diagnostics": [...]}`.
    public func json(_ diagnostics: [Diagnostic]) -> String {
        let items: [JSON] = diagnostics.map { d in
            var fields: [(String, JSON)] = [
                ("file", .string(d.file)),
                ("line", .int(d.span.line)),
                ("column", .int(d.span.column)),
                ("length", .int(d.span.length)),
                ("severity", .string(d.severity.rawValue)),
                ("code", .string(d.problem.code)),
                ("message", .string(d.message)),
            ]
            if let suggestion = d.suggestion { fields.append(("suggestion", .string(suggestion))) }
            return .object(fields)
        }
        return JSON.object([
            ("errors", .int(diagnostics.errorCount)),
            ("warnings", .int(diagnostics.warningCount)),
            ("diagnostics", .array(items)),
        ]).serialized(pretty: true) + "\n"
    }

    private func sourceLine(_ file: String, _ number: Int) -> String? {
        guard let text = sources[file], number >= 1 else { return nil }
        var current = 1
        var start = text.startIndex
        while current < number {
            guard let newline = text[start...].firstIndex(of: "\n") else { return nil }
            start = text.index(after: newline)
            current += 1
        }
        let end = text[start...].firstIndex(of: "\n") ?? text.endIndex
        return String(text[start..<end])
    }

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
