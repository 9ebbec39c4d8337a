/// Every record of a content folder, as loaded: references are still ids, not yet resolved.
public struct Content: Sendable {
    public var site: SiteConfig
    public var places: [Place] = []
    /// Members by id; set whole (an edit of one member sets the list again), as each set
    /// makes `memberIndex` again.
    public var members: [Member] = [] { didSet { memberIndex = MemberIndex(members) } }
    /// `members` by id and by e-mail address, made when they are set: every stage resolves
    /// references with this one index.
    public private(set) var memberIndex = MemberIndex([Member]())

    /// Sets the member index of a content loaded without its members' records (a build after
    /// an edit of reports only, from the index the last build kept): until `members` is set
    /// again, references resolve as they did then.
    public mutating func resolveMembers(with index: MemberIndex) {
        memberIndex = index
    }
    public var groups: [Group] = []
    public var albums: [Album] = []
    public var goals: [Goal] = []
    public var events: [GroupEvent] = []
    public var areas: [Area] = []
    public var reports: [Report] = []
    public var locations: [StudyLocation] = []
    public var checkIns: [CheckIn] = []
    /// Members that have a check-in file (even an empty one).
    public var checkInFiles: [String: String] = [:]
    public var threads: [Thread] = []
    /// The site's own pages, by id.
    public var pages: [ContentPage] = []
    /// Image files (avatars, photos, report attachments) by path, with their detected type.
    public var images: [String: ImageFile] = [:]
    /// Album videos by path, with their size in bytes.
    public var videos: [String: Int] = [:]
    /// The text of every file read, by path: for showing the source line of a diagnostic.
    public var sources: [String: String] = [:]
    /// The root as the user named it, for messages.
    public var displayRoot: String = "content"
    /// Records whose file could not be read (its problem is reported there): they exist, so
    /// references to them are not reported as unknown.
    public var unreadable: [Problem.Reference: Set<String>] = [:]

    public init(site: SiteConfig) {
        self.site = site
    }

    /// Where the report `id` is in `reports` (sorted by id), found by halving.
    public func reportPosition(of id: String) -> Int? {
        let low = reportInsertion(of: id)
        return low < reports.count && reports[low].id == id ? low : nil
    }

    /// Where a report of this id is, or goes, in `reports` (found by halving).
    public func reportInsertion(of id: String) -> Int {
        var (low, high) = (0, reports.count)
        while low < high {
            let middle = (low + high) / 2
            if reports[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The reports of these ids, in id order.
    public func reports(_ ids: Set<String>) -> [Report] {
        ids.sorted().compactMap { reportPosition(of: $0).map { reports[$0] } }
    }
}

/// The outcome of loading: the content and every problem found while reading it.
public struct LoadResult: Sendable {
    public let content: Content
    public let diagnostics: [Diagnostic]

    public init(content: Content, diagnostics: [Diagnostic]) {
        self.content = content
        self.diagnostics = diagnostics
    }
}

/// What a reload changed, for the stages after loading: each of them either runs over the
/// whole content again, or redoes only the entities named here and keeps the rest of what it
/// made last time (early cutoff, entity by entity).
public enum ContentChange: Sendable, Equatable {
    /// Anything may have changed, the set of files or the site's settings included.
    case everything
    /// Only the records of these content files changed, each in place: a report's or a reply's,
    /// a member's, a group's, an album's, a goal's, an event's, a page's, a study location's, a
    /// thread's or a message's, a member's check-ins. Of them, those `added` are new reports and
    /// replies, in folders that were there; no other file appeared, none vanished, the files
    /// read had no problem before or after, and no record changed what the rules that span
    /// records read of it (a member's address, a group's name). `site.yaml` may be among them,
    /// edited only in what pages show of it (`SiteConfig.differsOnlyInWhatPagesShow`).
    case records(Set<String>, added: Set<String> = [])

    /// Nothing changed.
    public static let nothing = ContentChange.records([])

    /// This change followed by `next`: what changed since before this one.
    public func then(_ next: ContentChange) -> ContentChange {
        guard case .records(let these, let added) = self, case .records(let those, let alsoAdded) = next else { return .everything }
        return .records(these.union(those), added: added.union(alsoAdded))
    }

    /// The files of a change of records; nil for `everything`.
    public var files: Set<String>? {
        guard case .records(let files, _) = self else { return nil }
        return files
    }

    /// The new files of a change of records.
    public var added: Set<String> {
        guard case .records(_, let added) = self else { return [] }
        return added
    }
}
