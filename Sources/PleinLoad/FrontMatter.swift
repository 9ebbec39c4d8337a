public import PleinCore
/// Splits a Markdown file into its YAML front matter and its body.
enum FrontMatter {
    struct Parts {
        let yaml: String
        /// The file line of the first YAML line (front matter starts after the opening `---`).
        let yamlLine: Int
        let body: String
        let bodyLine: Int
    }

    /// `text` must already be free of a BOM and CR line endings. Works on bytes: this runs for
    /// every Markdown file.
    static func split(_ text: String) -> Result<Parts, Problem> {
        let bytes = Array(text.utf8)
        /// The end of the line starting at `start` (index of its newline, or the end).
        func lineEnd(_ start: Int) -> Int {
            var i = start
            while i < bytes.count, bytes[i] != 10 { i += 1 }
            return i
        }
        /// Whether the line is `---`, maybe with trailing spaces or tabs.
        func isDelimiter(_ start: Int, _ end: Int) -> Bool {
            guard end - start >= 3, bytes[start] == 45, bytes[start + 1] == 45, bytes[start + 2] == 45 else { return false }
            return bytes[(start + 3)..<end].allSatisfy { $0 == 32 || $0 == 9 }
        }
        let firstEnd = lineEnd(0)
        guard isDelimiter(0, firstEnd) else { return .failure(.missingFrontMatter) }
        var start = firstEnd + 1
        var line = 2
        let yamlStart = min(start, bytes.count)
        while start <= bytes.count {
            let end = lineEnd(start)
            if start < bytes.count, isDelimiter(start, end) {
                let yaml = String(decoding: bytes[yamlStart..<max(yamlStart, start - 1)], as: UTF8.self)
                let bodyStart = min(end + 1, bytes.count)
                let body = String(decoding: bytes[bodyStart...], as: UTF8.self)
                return .success(Parts(yaml: start == yamlStart ? "" : yaml, yamlLine: 2, body: body, bodyLine: line + 1))
            }
            if end >= bytes.count { break }
            start = end + 1
            line += 1
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
        guard var text = bytes.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) else {
            return .invalid(firstInvalid(bytes))
        }
        if text.containsByte(13) {
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
