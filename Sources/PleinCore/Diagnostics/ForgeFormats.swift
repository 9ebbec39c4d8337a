import PleinText

/// Diagnostics as the forges' CI shows them on a pull request's changed lines.
///
/// `path` maps a diagnostic's file to its path from the repository's root, as the forge names
/// files.
extension DiagnosticFormatter {
    /// GitHub Actions workflow commands: `::error file=…,line=…,col=…::message`, one per line
    /// (data escaped for `%`, CR and LF; properties also for `:` and `,`).
    public func github(_ diagnostics: [Diagnostic], path: (String) -> String = { $0 }) -> String {
        diagnostics.map { d in
            let level = d.severity == .error ? "error" : "warning"
            let properties = [
                ("file", path(d.file)), ("line", String(d.span.line)), ("col", String(d.span.column)),
                ("endColumn", String(d.span.column + d.span.length)), ("title", "plein check: " + d.problem.code),
            ].map { "\($0)=\(Self.githubProperty($1))" }.joined(separator: ",")
            let message = d.message + (d.suggestion.map { "\n" + $0 } ?? "")
            return "::\(level) \(properties)::\(Self.githubData(message))\n"
        }.joined()
    }

    static func githubData(_ text: String) -> String {
        text.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
    }

    static func githubProperty(_ text: String) -> String {
        githubData(text).replacingAll(":", "%3A").replacingAll(",", "%2C")
    }

    /// A GitLab Code Quality report (JSON): each problem with a description, a check name, a
    /// severity, a stable fingerprint and its file and line.
    public func gitlab(_ diagnostics: [Diagnostic], path: (String) -> String = { $0 }) -> String {
        let items: [JSON] = diagnostics.map { d in
            let file = path(d.file)
            let description = d.message + (d.suggestion.map { " (\($0))" } ?? "")
            return .object([
                ("description", .string(description)),
                ("check_name", .string(d.problem.code)),
                ("fingerprint", .string(Hashing.sha256Hex(Array("\(file)\u{0}\(d.span.line)\u{0}\(d.problem.code)\u{0}\(d.message)".utf8)))),
                ("severity", .string(d.severity == .error ? "major" : "minor")),
                ("location", .object([
                    ("path", .string(file)),
                    ("positions", .object([
                        ("begin", .object([("line", .int(d.span.line)), ("column", .int(d.span.column))])),
                    ])),
                ])),
            ])
        }
        return JSON.array(items).serialized(pretty: true) + "\n"
    }
}

extension String {
    /// Every occurrence of the scalar `target` replaced. (Scalars, not characters: `"\r\n"` is one
    /// character.)
    func replacingAll(_ target: Unicode.Scalar, _ replacement: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar == target { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }
}
