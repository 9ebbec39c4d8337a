public import PleinCore
/// When each content file was committed, from the repository's history: the first commit that
/// added it and the last that changed it. Times come from commits, never from the clock or the
/// files, so building the same commit twice gives the same site.
public struct History: Sendable, Equatable {
    public var files: [String: Revision]

    public init(files: [String: Revision] = [:]) { self.files = files }

    public func revision(of file: String) -> Revision? { files[file] }
}

/// One file's history.
public struct Revision: Sendable, Hashable, Codable {
    /// The first commit that added the file.
    public let created: Moment
    /// The last commit that changed it.
    public let changed: Moment

    public init(created: Moment, changed: Moment) {
        self.created = created
        self.changed = changed
    }

    /// When the file was last edited after it was added; nil for a file committed once.
    public var edited: Moment? { changed > created ? changed : nil }
}
