/// Loads a content folder into typed records, collecting every problem on the way.
public enum ContentLoader {
    /// Image files above this size are refused before any decoding.
    public static let maxImageBytes = 64 * 1024 * 1024

    public static func load(_ fs: ContentFS) -> LoadResult {
        let tree = FileTree(fs)
        var diagnostics = tree.diagnostics

        // site.yaml first: its time zone is needed to read every date.
        var site = SiteConfig(title: "plein", baseURL: "http://localhost/")
        var sources: [String: String] = [:]
        let sizes = Dictionary(tree.files.map { ($0.path, $0.size) }, uniquingKeysWith: { a, _ in a })
        if let size = sizes["site.yaml"] {
            let reader = SourceReader(fs: fs, clock: .utc)
            let (read, text) = reader.read("site.yaml", size: size, schema: Schemas.site, into: &diagnostics)
            if let read { site = SiteConfig(read.object) }
            sources["site.yaml"] = text
        } else {
            diagnostics.append(Diagnostic(.missingFile("site.yaml"), in: "site.yaml"))
        }

        let roles = tree.files.map { ($0, FileRole.of($0.path)) }
        let reader = SourceReader(fs: fs, clock: site.clock)
        let parsed = parallelMap(roles) { file, role -> Parsed in
            var diagnostics: [Diagnostic] = []
            guard let schema = role.schema else {
                return Parsed(path: file.path, role: role, read: nil, text: nil, image: nil, diagnostics: [])
            }
            let (read, text) = reader.read(file.path, size: file.size, schema: schema, into: &diagnostics)
            return Parsed(path: file.path, role: role, read: read, text: text, image: nil, diagnostics: diagnostics)
        }

        var assembler = Assembler(site: site, displayRoot: fs.displayRoot)
        assembler.content.sources = sources
        assembler.diagnostics = diagnostics
        for item in parsed {
            assembler.diagnostics += item.diagnostics
            if let text = item.text { assembler.content.sources[item.path] = text }
        }
        assembler.inspectImages(tree.files, roles: roles, fs: fs)
        assembler.assemble(parsed, directories: tree.directories)
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
        case .area: return Schemas.area
        case .report: return Schemas.report
        case .reply: return Schemas.reply
        case .location: return Schemas.location
        case .checkins: return Schemas.checkins
        case .thread: return Schemas.thread
        case .message: return Schemas.message
        }
    }
}

