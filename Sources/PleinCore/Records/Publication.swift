/// Which groups of the content are published at all, and so which of the content's files may
/// have anything made from them in the output. A private group, a members-only one without a key, or one without
/// members (the last member left), is not published: no page, and no image, poster, video or copy of its files.
///
/// The model builder publishes exactly these groups, and the image and video stages make
/// nothing for files of other groups, so that what is left out of the pages is not written or
/// served under another name either.
public struct Publication: Sendable, Equatable {
    /// Ids of the groups that are published (public, unlisted, or members-only with a key; with
    /// at least one member).
    public let groups: Set<String>

    /// - Parameter sealed: the members-only groups that have a key (`Sealing`); the others are
    ///   not published, as if private.
    public init(_ content: Content, sealed: Set<String> = []) {
        let index = content.memberIndex
        groups = Set(content.groups.filter { group in
            let shown = switch group.visibility {
            case .public, .unlisted: true
            case .members: sealed.contains(group.id)
            case .private: false
            }
            return shown && group.members.contains { index.resolve($0.value) != nil }
        }.map(\.id))
    }

    /// Whether anything may be made from the content file at `path` (a photo, video or
    /// attachment): a group's files only when the group is published, other files always.
    public func publishes(_ path: String) -> Bool {
        Self.group(of: path).map(groups.contains) ?? true
    }

    /// The group whose file `path` is, if any (a photo, an album's, a goal's or an event's file).
    public static func group(of path: String) -> String? {
        switch FileRole.of(path) {
        case .photo(let group, _), .album(let group, _), .goal(let group, _), .event(let group, _): group
        case .group(let id): id
        default: nil
        }
    }
}
