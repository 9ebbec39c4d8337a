public import PleinCore
/// The texts `plein new` writes where the author is to write their own, so that `plein check`
/// can say when one is still there (it would be published as it is).
public enum Placeholders {
    public static let member = "A few words about yourself."
    public static let group = "What this group is about."
    public static let album = "The story of this album. Put the photos (.jpg, .png, .webp) in this folder."
    public static let goal = "What counts as done."
    public static let event = "What happens, and what to bring."
    public static let report = "What happened."
    public static let reply = "The reply."
    public static let location = "What it is like to study here."
    public static let message = "The message."
    public static let page = "What this page tells visitors."

    static let all: Set<String> = [member, group, album, goal, event, report, reply, location, message, page]

    /// The placeholders' lengths in bytes: a line of another length is none of them.
    private static let lengths = Set(all.map(\.utf8.count))

    /// The first line of `body` that is still a placeholder, with its line in the file. Lines
    /// are looked at as bytes; only one as long as a placeholder becomes a string (every body of
    /// the community passes here on each check).
    static func find(in body: Body) -> (text: String, line: Int)? {
        body.markdown.utf8.withContiguousStorageIfAvailable { find($0, line: body.line) }
            ?? Array(body.markdown.utf8).withUnsafeBufferPointer { find($0, line: body.line) }
    }

    private static func find(_ bytes: UnsafeBufferPointer<UInt8>, line first: Int) -> (text: String, line: Int)? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        var start = 0, line = first
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var a = start, b = end
            while a < b, isSpace(bytes[a]) { a += 1 }
            while b > a, isSpace(bytes[b - 1]) { b -= 1 }
            if lengths.contains(b - a) {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[a..<b]), as: UTF8.self)
                if all.contains(text) { return (text, line) }
            }
            start = end + 1
            line += 1
        }
        return nil
    }
}
