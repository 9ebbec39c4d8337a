public import PleinCore
/// The texts `plein new` writes where the author is to write their own, so that `plein check`
/// can say when one is still there (it would be published as it is).
public enum Placeholders {
    public static let member = "A few words about yourself."
    public static let group = "What this group is about."
    public static let album = "The story of this album. Put the photos (.jpg, .png, .webp) in this folder."
    public static let goal = "What counts as done."
    public static let report = "What happened."
    public static let reply = "The reply."
    public static let location = "What it is like to study here."
    public static let message = "The message."

    static let all: Set<String> = [member, group, album, goal, report, reply, location, message]

    /// The first line of `body` that is still a placeholder, with its line in the file.
    static func find(in body: Body) -> (text: String, line: Int)? {
        for (offset, line) in body.markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line).trimmingWhitespace
            if all.contains(text) { return (text, body.line + offset) }
        }
        return nil
    }
}
