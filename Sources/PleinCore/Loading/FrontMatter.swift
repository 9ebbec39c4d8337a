/// Splits a Markdown file into its YAML front matter and its body.
enum FrontMatter {
    struct Parts {
        let yaml: String
        /// The file line of the first YAML line (front matter starts after the opening `---`).
        let yamlLine: Int
        let body: String
        let bodyLine: Int
    }

    /// `text` must already be free of a BOM and CR line endings.
    static func split(_ text: String) -> Result<Parts, Problem> {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard let first = lines.first, first.trimmingTrailingSpaces == "---" else {
            return .failure(.missingFrontMatter)
        }
        lines = lines.dropFirst()
        var yamlLines: [Substring] = []
        var lineNumber = 2
        while let line = lines.first {
            lines = lines.dropFirst()
            if line.trimmingTrailingSpaces == "---" {
                let body = lines.joined(separator: "\n")
                return .success(Parts(
                    yaml: yamlLines.joined(separator: "\n"), yamlLine: 2, body: body, bodyLine: lineNumber + 1))
            }
            yamlLines.append(line)
            lineNumber += 1
        }
        return .failure(.unclosedFrontMatter)
    }
}

extension Substring {
    var trimmingTrailingSpaces: Substring {
        var s = self
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}

/// Turns raw bytes into text: checks UTF-8, drops a BOM, normalises CRLF and CR line endings.
enum TextDecoding {
    enum Outcome {
        case text(String)
        /// Not UTF-8: the line and column of the first bad byte.
        case invalid(Span)
        case empty
    }

    static func decode(_ bytes: [UInt8]) -> Outcome {
        var bytes = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            return .invalid(firstInvalid(bytes))
        }
        if text.utf8.contains(13) {
            text = text.replacing("\r\n", with: "\n").replacing("\r", with: "\n")
        }
        if text.allSatisfy(\.isWhitespace) { return .empty }
        return .text(text)
    }

    /// Finds the first byte that breaks UTF-8 and reports its line and column.
    private static func firstInvalid(_ bytes: ArraySlice<UInt8>) -> Span {
        var line = 1
        var column = 1
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            let length: Int
            switch b {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return Span(line: line, column: column)
            }
            guard i + length <= bytes.endIndex,
                  String(validating: bytes[i..<i + length], as: UTF8.self) != nil else {
                return Span(line: line, column: column)
            }
            if b == 0x0A { line += 1; column = 1 } else { column += 1 }
            i += length
        }
        return Span(line: line, column: column)
    }
}
