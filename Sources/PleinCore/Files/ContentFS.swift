import Foundation

/// Read access to a content folder, as a value of closures so tests can use an in-memory tree.
/// Paths are relative to the content root and use `/`; `""` is the root itself.
public struct ContentFS: Sendable {
    public struct Entry: Sendable, Hashable {
        public enum Kind: Sendable, Hashable { case file, directory, other }
        public let name: String
        public let kind: Kind
        public let size: Int
        /// For a symbolic link: where it points, and whether that lies outside the root.
        public let linkTarget: String?
        public let escapesRoot: Bool
        /// For a symbolic link inside the root: the root-relative path of the file it leads to, or
        /// why it leads nowhere plein can go (a loop, too long a chain of links).
        public let resolved: Result<String, Failure>?
        /// For a file with other names (hard links): its identity and how many names it has, so the
        /// names inside the root can be counted.
        public let identity: Identity?

        public struct Identity: Sendable, Hashable {
            public let device: UInt64, inode: UInt64, links: Int
            public init(device: UInt64, inode: UInt64, links: Int) {
                self.device = device
                self.inode = inode
                self.links = links
            }
        }

        public init(name: String, kind: Kind, size: Int = 0, linkTarget: String? = nil, escapesRoot: Bool = false,
                    resolved: Result<String, Failure>? = nil, identity: Identity? = nil) {
            self.name = name
            self.kind = kind
            self.size = size
            self.linkTarget = linkTarget
            self.escapesRoot = escapesRoot
            self.resolved = resolved
            self.identity = identity
        }
    }

    /// The longest chain of symbolic links plein follows: a chain longer than this, or a loop,
    /// is refused at its first link, so walking any tree of links ends.
    public static let maxLinkChain = 8

    public struct Failure: Error, Sendable, Hashable {
        public let reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    /// The entries of a directory, sorted by name.
    public var list: @Sendable (_ directory: String) throws(Failure) -> [Entry]
    public var read: @Sendable (_ path: String) throws(Failure) -> [UInt8]
    /// The first `count` bytes (fewer if the file is shorter).
    public var readPrefix: @Sendable (_ path: String, _ count: Int) throws(Failure) -> [UInt8]
    /// The root as the user wrote it, for messages (`content`).
    public let displayRoot: String

    public init(
        displayRoot: String,
        list: @escaping @Sendable (String) throws(Failure) -> [Entry],
        read: @escaping @Sendable (String) throws(Failure) -> [UInt8],
        readPrefix: @escaping @Sendable (String, Int) throws(Failure) -> [UInt8]
    ) {
        self.displayRoot = displayRoot
        self.list = list
        self.read = read
        self.readPrefix = readPrefix
    }
}

extension ContentFS {
    /// The real file system under `root`.
    public static func disk(_ root: String) -> ContentFS {
        let realRoot = realPath(root) ?? root
        @Sendable func full(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }
        return ContentFS(
            displayRoot: root.hasSuffix("/") ? String(root.dropLast()) : root,
            list: { (directory: String) throws(Failure) -> [Entry] in
                let dirPath = full(directory)
                guard let dir = opendir(dirPath) else { throw Failure(String(cString: strerror(errno))) }
                defer { closedir(dir) }
                var entries: [Entry] = []
                while let item = readdir(dir) {
                    let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if name == "." || name == ".." { continue }
                    let path = dirPath + "/" + name
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    var target: String?
                    var escapes = false
                    var resolution: Result<String, Failure>?
                    if (info.st_mode & S_IFMT) == S_IFLNK {
                        target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                        if let problem = chainProblem(path) {
                            entries.append(Entry(name: name, kind: .other, linkTarget: target, resolved: .failure(problem)))
                            continue
                        }
                        if let resolved = realPath(path) {
                            escapes = resolved != realRoot && !resolved.hasPrefix(realRoot + "/")
                            if !escapes { resolution = .success(resolved == realRoot ? "." : String(resolved.dropFirst(realRoot.count + 1))) }
                            guard stat(path, &info) == 0 else { continue }
                        } else if errno == ELOOP {
                            entries.append(Entry(name: name, kind: .other, linkTarget: target, resolved: .failure(Failure("it is part of a loop of symbolic links"))))
                            continue
                        } else {
                            entries.append(Entry(name: name, kind: .other, linkTarget: target, escapesRoot: false))
                            continue
                        }
                    }
                    let kind: Entry.Kind
                    switch info.st_mode & S_IFMT {
                    case S_IFREG: kind = .file
                    case S_IFDIR: kind = .directory
                    default: kind = .other
                    }
                    let identity = kind == .file && info.st_nlink > 1
                        ? Entry.Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), links: Int(info.st_nlink)) : nil
                    entries.append(Entry(name: name, kind: kind, size: Int(info.st_size), linkTarget: target, escapesRoot: escapes,
                                         resolved: resolution, identity: identity))
                }
                return entries.sorted { $0.name < $1.name }
            },
            read: { (path: String) throws(Failure) -> [UInt8] in
                try readFile(full(path), limit: nil)
            },
            readPrefix: { (path: String, count: Int) throws(Failure) -> [UInt8] in
                try readFile(full(path), limit: count)
            }
        )
    }

    /// Whether `path` is a folder itself (not a link to one).
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Why the chain of symbolic links starting at `path` is not followed: longer than
    /// `maxLinkChain`, or a loop (which never ends, so it is longer too).
    private static func chainProblem(_ path: String) -> Failure? {
        var current = path
        for _ in 0..<maxLinkChain {
            guard let next = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return nil }
            current = next.hasPrefix("/") ? next : (current as NSString).deletingLastPathComponent + "/" + next
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return nil }
        }
        return Failure("it starts a chain of more than \(maxLinkChain) symbolic links, or a loop")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func readFile(_ path: String, limit: Int?) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(String(cString: strerror(errno))) }
        let wanted = limit.map { min($0, Int(info.st_size)) } ?? Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let n = bytes.withUnsafeMutableBytes { raw in
                Glibc.read(fd, raw.baseAddress! + done, wanted - done)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(String(cString: strerror(errno)))
            }
            if n == 0 { break }
            done += n
        }
        if done < wanted { bytes.removeLast(wanted - done) }
        return bytes
    }

    /// `top` over `bottom`, file by file: a path `top` has is read from it, any other from
    /// `bottom`; a folder lists the entries of both. (A site's `templates/` over the built-in
    /// theme.)
    public static func layered(_ top: ContentFS, over bottom: ContentFS) -> ContentFS {
        @Sendable func inTop(_ path: String) -> Bool {
            let parent = path.split(separator: "/").dropLast().joined(separator: "/")
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return (try? top.list(parent))?.contains { $0.name == name && $0.kind != .directory } ?? false
        }
        return ContentFS(
            displayRoot: top.displayRoot,
            list: { (directory: String) throws(Failure) -> [Entry] in
                let upper = try? top.list(directory)
                let lower = try? bottom.list(directory)
                if upper == nil, lower == nil { throw Failure("no such directory") }
                var entries: [String: Entry] = [:]
                for entry in lower ?? [] { entries[entry.name] = entry }
                for entry in upper ?? [] { entries[entry.name] = entry }
                return entries.values.sorted { $0.name < $1.name }
            },
            read: { (path: String) throws(Failure) -> [UInt8] in
                inTop(path) ? try top.read(path) : try bottom.read(path)
            },
            readPrefix: { (path: String, count: Int) throws(Failure) -> [UInt8] in
                inTop(path) ? try top.readPrefix(path, count) : try bottom.readPrefix(path, count)
            }
        )
    }

    /// An in-memory tree: file paths to contents; symlinks as path → target, relative to the
    /// link's folder (outside if the target is absolute or climbs out of the root with `..`).
    public static func memory(_ files: [String: [UInt8]], symlinks: [String: String] = [:], displayRoot: String = "content") -> ContentFS {
        /// Where a link leads: the root-relative path, nil when outside the root.
        @Sendable func follow(_ link: String, _ target: String) -> String? {
            guard !target.hasPrefix("/") else { return nil }
            var parts = link.split(separator: "/").dropLast().map(String.init)
            for part in target.split(separator: "/") where part != "." {
                if part == ".." {
                    if parts.popLast() == nil { return nil }
                } else {
                    parts.append(String(part))
                }
            }
            return parts.joined(separator: "/")
        }
        /// The file a path names, through links (at most `maxLinkChain` of them).
        @Sendable func contents(_ path: String) -> [UInt8]? {
            var current = path
            for _ in 0...maxLinkChain {
                if let bytes = files[current] { return bytes }
                guard let target = symlinks[current], let next = follow(current, target) else { return nil }
                current = next
            }
            return nil
        }
        return ContentFS(
            displayRoot: displayRoot,
            list: { (directory: String) throws(Failure) -> [Entry] in
                let prefix = directory.isEmpty ? "" : directory + "/"
                var entries: [String: Entry] = [:]
                for (path, bytes) in files where path.hasPrefix(prefix) {
                    let rest = path.dropFirst(prefix.count)
                    if let slash = rest.firstIndex(of: "/") {
                        let name = String(rest[..<slash])
                        entries[name] = Entry(name: name, kind: .directory)
                    } else {
                        entries[String(rest)] = Entry(name: String(rest), kind: .file, size: bytes.count)
                    }
                }
                for (path, target) in symlinks where path.hasPrefix(prefix) && !path.dropFirst(prefix.count).contains("/") {
                    let name = String(path.dropFirst(prefix.count))
                    var current = path
                    var resolved: Result<String, Failure> = .failure(Failure("it starts a chain of more than \(maxLinkChain) symbolic links, or a loop"))
                    var escapes = false
                    for _ in 0..<maxLinkChain {
                        guard let next = follow(current, symlinks[current]!) else { escapes = true; break }
                        if symlinks[next] == nil { resolved = .success(next); break }
                        current = next
                    }
                    if escapes {
                        entries[name] = Entry(name: name, kind: .file, linkTarget: target, escapesRoot: true)
                    } else if case .success(let end) = resolved {
                        let kind: Entry.Kind = files[end] != nil ? .file : files.keys.contains { $0.hasPrefix(end + "/") } ? .directory : .other
                        entries[name] = Entry(name: name, kind: kind, size: files[end]?.count ?? 0, linkTarget: target, resolved: resolved)
                    } else {
                        entries[name] = Entry(name: name, kind: .other, linkTarget: target, resolved: resolved)
                    }
                }
                if entries.isEmpty, !directory.isEmpty { throw Failure("no such directory") }
                return entries.values.sorted { $0.name < $1.name }
            },
            read: { (path: String) throws(Failure) -> [UInt8] in
                guard let bytes = contents(path) else { throw Failure("no such file") }
                return bytes
            },
            readPrefix: { (path: String, count: Int) throws(Failure) -> [UInt8] in
                guard let bytes = contents(path) else { throw Failure("no such file") }
                return Array(bytes.prefix(count))
            }
        )
    }
}

extension ContentFS {
    /// The same files, of which a folder lists only the entries `includes` takes (by path, and
    /// whether it is a folder): the part of the content a build after an edit reads.
    public func only(_ includes: @escaping @Sendable (_ path: String, _ folder: Bool) -> Bool) -> ContentFS {
        let list = self.list
        return ContentFS(
            displayRoot: displayRoot,
            list: { (directory: String) throws(Failure) -> [Entry] in
                try list(directory).filter { includes(directory.isEmpty ? $0.name : directory + "/" + $0.name, $0.kind == .directory) }
            },
            read: read, readPrefix: readPrefix)
    }

    /// The same files, and `gone` (path → size) listed in their folders as they were before
    /// they were deleted: the content an edit that deletes them started from, whose records
    /// are known (the files themselves cannot be read).
    public func listing(_ gone: [String: Int]) -> ContentFS {
        guard !gone.isEmpty else { return self }
        let list = self.list
        var byFolder: [String: [Entry]] = [:]
        for (path, size) in gone {
            let slash = path.lastIndex(of: "/")
            byFolder[slash.map { String(path[..<$0]) } ?? "", default: []].append(
                Entry(name: slash.map { String(path[path.index(after: $0)...]) } ?? path, kind: .file, size: size))
        }
        return ContentFS(
            displayRoot: displayRoot,
            list: { [byFolder] (directory: String) throws(Failure) -> [Entry] in
                let entries = try list(directory)
                guard let extra = byFolder[directory] else { return entries }
                let names = Set(entries.map(\.name))
                return (entries + extra.filter { !names.contains($0.name) }).sorted { $0.name < $1.name }
            },
            read: read, readPrefix: readPrefix)
    }
}
