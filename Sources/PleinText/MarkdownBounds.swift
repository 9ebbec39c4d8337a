/// What Markdown plein renders in bounded time. cmark-gfm takes time quadratic in how many lists
/// and quotes one line opens inside each other (`+ + + + …`: 50,000 of them keep a build busy for
/// seconds, 100,000 for a minute): a line may open at most `maxNesting`. Checked alike by
/// `plein check` (an error at the line) and by the renderer (which never hands such a text to
/// cmark-gfm), so a green check means a build that finishes.
public enum MarkdownBounds {
    /// The most lists and block quotes one line may open, one inside the other.
    public static let maxNesting = 32

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
