/// What Markdown plein renders in bounded time. cmark-gfm takes time quadratic in how many lists
/// and quotes one line opens inside each other (`+ + + + …`: 50,000 of them keep a build busy for
/// seconds, 100,000 for a minute): a line may open at most `maxNesting`. Checked alike by
/// `plein check` (an error at the line) and by the renderer (which never hands such a text to
/// cmark-gfm), so a green check means a build that finishes.
public enum MarkdownBounds {
    /// The most lists and block quotes one line may open, one inside the other.
    public static let maxNesting = 32

    /// The most runs of `*` or `_` one paragraph may hold: cmark-gfm matches them against each
    /// other in time quadratic in their number (`*a **a *a **a … a** a*`: 14,000 pairs took 26 s).
    /// Ordinary text holds a few dozen.
    public static let maxDelimiterRuns = 2_000

    /// The most footnote references one text may make. Each gets a link back from its note, by
    /// an id of its own: `[^a]` 100,000 times (400 KB) made a page of 32 MB and took 3 s, feeds
    /// included. A long article cites a few hundred.
    public static let maxFootnoteReferences = 1_000

    /// Why `markdown` cannot be rendered in bounded time, with the line (0-based) that says so.
    public enum Excess: Equatable, Sendable {
        case nesting(depth: Int)
        case delimiters(runs: Int)
        case footnotes(references: Int)
    }

    /// The first line past a bound, or nil.
    /// (Every text passes here twice, in check and in render: a text with no more marks of a
    /// kind in all than a bound allows is not looked at line by line for it.)
    public static func excess(_ markdown: String) -> (line: Int, excess: Excess)? {
        let marks = self.marks(markdown)
        if marks.containers > maxNesting, let (line, depth) = tooDeep(markdown) { return (line, .nesting(depth: depth)) }
        if marks.emphasis > maxDelimiterRuns, let (line, runs) = tooManyDelimiters(markdown) { return (line, .delimiters(runs: runs)) }
        if marks.carets > maxFootnoteReferences, let (line, references) = tooManyFootnoteReferences(markdown) {
            return (line, .footnotes(references: references))
        }
        return nil
    }

    /// How many bytes of the text could open a container (`>`, `-`, `+`, `*`, a digit), are
    /// emphasis marks (`*`, `_`), or could make a footnote reference (`^`): none of the bounds
    /// can be passed with fewer.
    static func marks(_ markdown: String) -> (containers: Int, emphasis: Int, carets: Int) {
        var text = markdown
        return text.withUTF8 { bytes in
            var (containers, emphasis, carets) = (0, 0, 0)
            for byte in bytes {
                let isEmphasis = byte == 42 || byte == 95
                emphasis &+= isEmphasis ? 1 : 0
                containers &+= (byte == 62 || byte == 45 || byte == 43 || byte == 42 || (byte >= 48 && byte <= 57)) ? 1 : 0
                carets &+= byte == 94 ? 1 : 0
            }
            return (containers, emphasis, carets)
        }
    }

    /// The first line (0-based) at which the text has made more than `maxFootnoteReferences`
    /// footnote references (`[^`, outside fenced code and the notes' own definitions), and how many.
    public static func tooManyFootnoteReferences(_ markdown: String) -> (line: Int, references: Int)? {
        var references = 0
        return firstLine(markdown) { bytes, first, end, line, kind in
            guard kind == .text else { return nil }
            var j = first
            // (A definition, `[^a]: …`, opens its line: not a reference.)
            if end - first > 2, bytes[first] == 91, bytes[first + 1] == 94 {
                var k = first + 2
                while k < end, bytes[k] != 93 { k += 1 }
                if k + 1 < end, bytes[k + 1] == 58 { j = k + 2 }
            }
            while j + 1 < end {
                if bytes[j] == 91, bytes[j + 1] == 94 {
                    references += 1
                    if references > maxFootnoteReferences { return (line, references) }
                    j += 2
                } else {
                    j += 1
                }
            }
            return nil
        }
    }

    /// What a line is to the bounds: a fence of code (``` or ~~~), a line inside fenced code, a
    /// blank line, or text.
    enum LineKind { case fence, code, blank, text }

    /// The first result `visit` gives for a line, given the text's bytes, the line's first byte
    /// after its indent and its end, its number (0-based) and its kind; nil when it gives none.
    static func firstLine<T>(_ markdown: String, _ visit: (UnsafeBufferPointer<UInt8>, Int, Int, Int, LineKind) -> T?) -> T? {
        var result: T?
        var text = markdown
        text.withUTF8 { bytes in
            var line = 0, i = 0, inFence = false
            while i < bytes.count {
                var end = i
                while end < bytes.count, bytes[end] != 10 { end += 1 }
                var first = i
                while first < end, bytes[first] == 32 { first += 1 }
                let fence = end - first >= 3 && ((bytes[first] == 96 && bytes[first + 1] == 96 && bytes[first + 2] == 96)
                                                 || (bytes[first] == 126 && bytes[first + 1] == 126 && bytes[first + 2] == 126))
                if fence { inFence.toggle() }
                let kind: LineKind = fence ? .fence : inFence ? .code : first == end ? .blank : .text
                if let found = visit(bytes, first, end, line, kind) {
                    result = found
                    return
                }
                i = end + 1
                line += 1
            }
        }
        return result
    }

    /// The first line (0-based) where a paragraph holds more than `maxDelimiterRuns` runs of
    /// `*` or `_` (outside fenced code), and how many.
    public static func tooManyDelimiters(_ markdown: String) -> (line: Int, runs: Int)? {
        var runs = 0
        return firstLine(markdown) { bytes, first, end, line, kind in
            guard kind == .text else {
                // (A paragraph ends at a blank line or a fence.)
                if kind != .code { runs = 0 }
                return nil
            }
            var j = first
            while j < end {
                let byte = bytes[j]
                if byte == 42 || byte == 95 {
                    runs += 1
                    while j < end, bytes[j] == byte { j += 1 }
                    if runs > maxDelimiterRuns { return (line, runs) }
                } else {
                    j += 1
                }
            }
            return nil
        }
    }

    /// The first line (0-based) that opens more than `maxNesting` containers, and how many it opens.
    public static func tooDeep(_ markdown: String) -> (line: Int, depth: Int)? {
        var line = 0
        var result: (Int, Int)?
        var text = markdown
        text.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                // The containers this line opens: up to 3 spaces, then `>` or a list marker
                // (`-`, `+`, `*`, or 1–9 digits and `.` or `)`) followed by a space, a tab or its end.
                var depth = 0
                while true {
                    var j = i, spaces = 0
                    while j < bytes.count, bytes[j] == 32, spaces < 3 { j += 1; spaces += 1 }
                    guard j < bytes.count else { break }
                    let byte = bytes[j]
                    var marker = 0
                    if byte == 62 {                       // >
                        marker = 1
                    } else if byte == 45 || byte == 43 || byte == 42 {    // - + *
                        marker = 1
                    } else if byte >= 48, byte <= 57 {
                        var k = j
                        while k < bytes.count, k - j < 9, bytes[k] >= 48, bytes[k] <= 57 { k += 1 }
                        if k < bytes.count, bytes[k] == 46 || bytes[k] == 41 { marker = k - j + 1 }
                    }
                    guard marker > 0 else { break }
                    let next = j + marker
                    guard byte == 62 || next >= bytes.count || bytes[next] == 32 || bytes[next] == 9 || bytes[next] == 10 else { break }
                    depth += 1
                    i = next < bytes.count && (bytes[next] == 32 || bytes[next] == 9) ? next + 1 : next
                    if depth > maxNesting { result = (line, depth); return }
                }
                while i < bytes.count, bytes[i] != 10 { i += 1 }
                i += 1
                line += 1
            }
        }
        return result
    }
}
