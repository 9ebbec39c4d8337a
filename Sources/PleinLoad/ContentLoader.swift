public import PleinCore
/// What loading learned, kept so that the next load after an edit reads only what changed.
public struct ContentState: Sendable {
    var tree: FileTree
    var site: SiteConfig
    var siteDiagnostics: [Diagnostic]
    var siteText: String?
    var parsed: [String: Parsed]
    var images: [String: (ImageFile, Diagnostic?)]
    /// The files read (not taken from known records) by the load that made this state.
    var fresh: Set<String> = []

    /// The files the load that made this state read (not taken from known records or from the
    /// load before).
    public var filesRead: Set<String> { fresh }

    /// What records read now are read with (see `KnownRecords.context`).
    public var recordContext: String { KnownRecords.context(clock: site.clock) }

    /// The records of files the last load read, and read without an error: what a build
    /// store keeps for the next build (path → the file's SHA-256 and the record's encoding).
    public var newRecords: [String: (hash: [UInt8], encoded: [UInt8])] {
        var records: [String: (hash: [UInt8], encoded: [UInt8])] = [:]
        forEachNewRecord { path, hash, encoded in records[path] = (hash, encoded) }
        return records
    }

    /// The paths of `newRecords`, in order.
    public var newRecordPaths: [String] {
        fresh.sorted().filter { path in parsed[path].map { $0.read != nil && RecordCoding.keeps($0.diagnostics) } ?? false }
    }

    /// `newRecords` one by one, in path order, encoded a batch at a time (on every core): the
    /// encodings of the whole content are never in memory at once.
    public func forEachNewRecord(_ body: (String, [UInt8], [UInt8]) throws -> Void) rethrows {
        try forEachParallelMapped(newRecordPaths, { [parsed] path in
            let item = parsed[path]!
            return (path, item.read!.digest, RecordCoding.encode(item.read!, warned: !item.diagnostics.isEmpty))
        }) { path, hash, encoded in try body(path, hash, encoded) }
    }

    /// Forgets the files' texts (kept for showing a problem's line, and for nothing else once the
    /// content is checked): a one-off build does not hold its whole content twice.
    public mutating func forgetTexts(keeping: Set<String>) {
        for (path, item) in parsed where item.text != nil && !keeping.contains(path) {
            parsed[path] = Parsed(path: item.path, role: item.role, read: item.read, text: nil, image: item.image, diagnostics: item.diagnostics)
        }
    }
}

/// Loads a content folder into typed records, collecting every problem on the way.
public enum ContentLoader {
    /// Image files above this size are refused before any decoding.
    public static let maxImageBytes = 64 * 1024 * 1024
    /// The largest album video: 4 GiB, twenty minutes of 4K from a phone.
    public static let maxVideoBytes = 4 * 1024 * 1024 * 1024

    public static func load(_ fs: ContentFS) -> LoadResult {
        loadKeepingState(fs).0
    }

    /// Loads everything, and returns what a later `reload` needs. Files in `known` (records of
    /// an earlier load, for files whose bytes have not changed since) are not read again.
    public static func loadKeepingState(_ fs: ContentFS, known: KnownRecords? = nil, timings: Bool = false) -> (LoadResult, ContentState) {
        loadKeepingState(fs, known: known, reusing: nil, timings: timings)
    }

    /// The same, taking from `reusing` (the state of the load before) what it read of files
    /// that are not in `reusing.changed`, listed at the size they had, when the site's time
    /// zone, with which every date is read, is the same; and its list of files, when the changed
    /// files were edited in place.
    static func loadKeepingState(_ fs: ContentFS, known: KnownRecords?, reusing: (state: ContentState, changed: Set<String>)?,
                                         timings: Bool) -> (LoadResult, ContentState) {
        var timer = PhaseTimer(enabled: timings)
        // (Edits in place only: the files as the load before listed them, with their new sizes.)
        var kept = reusing?.state.tree
        // (A path neither listed before nor now, an editor's file saved and renamed, is no change.)
        let edited = (reusing?.changed ?? []).filter { path in
            kept?.files[path] != nil || ((try? fs.list(FileTree.parent(of: path)))?.contains { $0.name == path.split(separator: "/").last.map(String.init) } ?? false)
        }
        let inPlace = kept?.take(fs, edited: edited, added: []) == true
        let tree = inPlace ? kept! : FileTree(fs)
        timer.lap(inPlace ? "  list files (the edited ones)" : "  list files")
        var siteDiagnostics: [Diagnostic] = []
        // site.yaml first: its time zone is needed to read every date.
        var site = SiteConfig(title: "plein", baseURL: "http://localhost/")
        var siteText: String?
        if let size = tree.files["site.yaml"] {
            let (read, text) = SourceReader(fs: fs, clock: .utc).read("site.yaml", size: size, schema: Schemas.site, into: &siteDiagnostics)
            if let read { site = SiteConfig(read.object) }
            siteText = text
        } else {
            siteDiagnostics.append(Diagnostic(.missingFile("site.yaml"), in: "site.yaml"))
        }
        var state = ContentState(tree: tree, site: site, siteDiagnostics: siteDiagnostics, siteText: siteText, parsed: [:], images: [:])
        let files = tree.sortedFiles.filter { FileRole.section(of: $0.path).map(site.has) ?? true }
        var unread = files
        if let (before, changed) = reusing, before.site.clock.identifier == site.clock.identifier {
            // (A folder among the changed paths: every file under it was read again.)
            let folders = changed.map { $0 + "/" }
            unread = files.filter { path, size in
                guard !changed.contains(path), !folders.contains(where: path.hasPrefix), before.tree.files[path] == size,
                      let item = before.parsed[path] else { return true }
                state.parsed[path] = item
                if let image = before.images[path] { state.images[path] = image }
                return false
            }
            timer.lap("  as the last load read them (\(files.count - unread.count))")
        }
        let reusable = known.flatMap { $0.context == KnownRecords.context(clock: site.clock) ? $0.records : nil } ?? [:]
        let (reused, toRead) = decode(unread, known: reusable, clock: site.clock)
        for item in reused { state.parsed[item.path] = item }
        timer.lap("  known records (\(reused.count))")
        for item in parse(toRead, fs: fs, clock: site.clock) { state.parsed[item.path] = item }
        state.fresh = Set(toRead.map(\.path))
        timer.lap("  read and parse (\(toRead.count))")
        for (image, problem) in Assembler.inspectImages(files.filter { state.images[$0.path] == nil }, fs: fs) { state.images[image.path] = (image, problem) }
        let result = assemble(state, displayRoot: fs.displayRoot)
        timer.lap("  assemble")
        return (result, state)
    }

    /// Whether a problem of a record's file comes of the files joined to it, not of its own text.
    public static func isOfJoinedFiles(_ problem: Problem) -> Bool {
        switch problem {
        case .emptyAlbum, .threadWithoutMessages: return true
        default: return false
        }
    }

    /// One warning per folder of a section that is off: its files are not published.
    private static func sectionsOff(_ state: ContentState) -> [Diagnostic] {
        var counts: [String: (section: SiteSection, files: Int)] = [:]
        for path in state.tree.files.keys {
            guard let section = FileRole.section(of: path), !state.site.has(section) else { continue }
            let folder = String(path.split(separator: "/").first!)
            counts[folder] = (section, (counts[folder]?.files ?? 0) + 1)
        }
        return counts.keys.sorted().map { folder in
            Diagnostic(.sectionOff(counts[folder]!.section.rawValue, folder: folder, files: counts[folder]!.files), in: folder)
        }
    }

    /// The problems of one file's text, as if it were at `path` in a site with `site`'s
    /// settings (for `plein new`, before it writes the file).
    public static func problems(of text: String, at path: String, site: SiteConfig) -> [Diagnostic] {
        guard let schema = FileRole.of(path).schema else { return [] }
        let bytes = Array(text.utf8)
        var diagnostics: [Diagnostic] = []
        _ = SourceReader(fs: .memory([path: bytes]), clock: site.clock).read(path, size: bytes.count, schema: schema, into: &diagnostics)
        return diagnostics
    }

    /// The files whose records are known, decoded; and the rest, to be read.
    /// A record whose reading warned is read again from its text, for its problems.
    private static func decode(_ files: [(path: String, size: Int)], known: [String: (hash: [UInt8], encoded: [UInt8])], clock: SiteClock)
        -> (reused: [Parsed], toRead: [(path: String, size: Int)]) {
        guard !known.isEmpty else { return ([], files) }
        let decoded = parallelMap(files.map { ($0.path, $0.size) }) { path, size -> (Parsed?, (path: String, size: Int)?) in
            let role = FileRole.of(path)
            guard let record = known[path], let schema = role.schema,
                  let (read, warned) = RecordCoding.decode(record.encoded, digest: record.hash) else { return (nil, (path, size)) }
            guard warned else { return (Parsed(path: path, role: role, read: read, text: read.text, image: nil, diagnostics: []), nil) }
            let bytes = Array(read.text.utf8)
            var diagnostics: [Diagnostic] = []
            guard let again = SourceReader(fs: .memory([path: bytes]), clock: clock).read(path, size: bytes.count, schema: schema, into: &diagnostics).0
            else { return (nil, (path, size)) }
            let same = SourceReader.Read(root: again.root, body: again.body, text: again.text, digest: record.hash)
            return (Parsed(path: path, role: role, read: same, text: same.text, image: nil, diagnostics: diagnostics), nil)
        }
        return (decoded.compactMap(\.0), decoded.compactMap(\.1))
    }

    /// The problems of reading `files` each on its own, of those with an error among them (a
    /// front matter whose YAML does not parse, a value not of its type), with their texts by
    /// path: what a build after an edit of them shows, and stops on, without loading the rest of
    /// the content. Empty when no file has an error.
    public static func readingErrors(_ files: [(path: String, size: Int)], fs: ContentFS, clock: SiteClock)
        -> (errors: [Diagnostic], texts: [String: String]) {
        let parsed = parse(files, fs: fs, clock: clock).filter { $0.diagnostics.hasErrors }
        return (parsed.flatMap(\.diagnostics).sorted(), Dictionary(parsed.compactMap { item in item.text.map { (item.path, $0) } }, uniquingKeysWith: { a, _ in a }))
    }

    static func parse(_ files: [(path: String, size: Int)], fs: ContentFS, clock: SiteClock) -> [Parsed] {
        let reader = SourceReader(fs: fs, clock: clock)
        return parallelMap(files.map { ($0.path, $0.size) }) { path, size -> Parsed in
            let role = FileRole.of(path)
            guard let schema = role.schema else {
                let (text, problems) = attachment(path, size: size, role: role, fs: fs)
                return Parsed(path: path, role: role, read: nil, text: text, image: nil, diagnostics: problems)
            }
            var diagnostics: [Diagnostic] = []
            let (read, text) = reader.read(path, size: size, schema: schema, into: &diagnostics)
            return Parsed(path: path, role: role, read: read, text: text, image: nil, diagnostics: diagnostics)
        }
    }

    /// A report's attachment: the problem when its first bytes are not of its type (a "PDF" that
    /// is HTML); and a text attachment's text, which `check` reads like every published text.
    private static func attachment(_ path: String, size: Int, role: FileRole, fs: ContentFS) -> (text: String?, problems: [Diagnostic]) {
        guard case .reportResource = role, let name = path.split(separator: "/").last.map(String.init),
              let type = AttachmentType.of(name) else { return (nil, []) }
        do throws(ContentFS.Failure) {
            if type.isText {
                guard size <= SourceReader.maxTextBytes else { return (nil, []) }
                return (String(decoding: try fs.read(path), as: UTF8.self), [])
            }
            if type.matches(try fs.readPrefix(path, AttachmentType.headLength)) { return (nil, []) }
            return (nil, [Diagnostic(.attachmentMismatch(file: name, type: type.name), in: path)])
        } catch {
            return (nil, [Diagnostic(.unreadable(error.reason), in: path)])
        }
    }

    static func assemble(_ state: ContentState, displayRoot: String) -> LoadResult {
        var assembler = Assembler(site: state.site, displayRoot: displayRoot)
        assembler.diagnostics = state.tree.diagnostics + state.siteDiagnostics + sectionsOff(state)
        if let text = state.siteText { assembler.content.sources["site.yaml"] = text }
        let parsed = state.parsed.keys.sorted().map { state.parsed[$0]! }
        for item in parsed {
            assembler.diagnostics += item.diagnostics
            if let text = item.text { assembler.content.sources[item.path] = text }
        }
        for (path, (image, problem)) in state.images {
            assembler.content.images[path] = image
            if let problem { assembler.diagnostics.append(problem) }
        }
        for (path, size) in state.tree.files where FileRole.isVideo(FileRole.splitExtension(path).ext) {
            guard case .photo = FileRole.of(path), FileRole.section(of: path).map(state.site.has) ?? true else { continue }
            if size > maxVideoBytes {
                assembler.diagnostics.append(Diagnostic(.fileTooLarge(bytes: size, limit: maxVideoBytes), in: path))
            } else {
                assembler.content.videos[path] = size
            }
        }
        assembler.assemble(parsed, directories: Array(state.tree.directories).sorted())
        return LoadResult(content: assembler.content, diagnostics: assembler.diagnostics.sorted())
    }
}

/// One file after reading: its role and, for text files, its validated values.
struct Parsed: Sendable {
    let path: String
    let role: FileRole
    let read: SourceReader.Read?
    let text: String?
    let image: ImageFile?
    let diagnostics: [Diagnostic]
}

extension FileRole {
    var schema: RecordSchema? {
        switch self {
        case .site, .readme, .avatar, .photo, .reportResource, .unexpected: return nil
        case .places: return Schemas.places
        case .member: return Schemas.member
        case .group: return Schemas.group
        case .album: return Schemas.album
        case .goal: return Schemas.goal
        case .event: return Schemas.event
        case .area: return Schemas.area
        case .report: return Schemas.report
        case .reply: return Schemas.reply
        case .location: return Schemas.location
        case .checkins: return Schemas.checkins
        case .thread: return Schemas.thread
        case .message: return Schemas.message
        case .page: return Schemas.page
        }
    }
}

