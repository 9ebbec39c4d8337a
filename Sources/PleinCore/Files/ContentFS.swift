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

        public init(name: String, kind: Kind, size: Int = 0, linkTarget: String? = nil, escapesRoot: Bool = false) {
            self.name = name
            self.kind = kind
            self.size = size
            self.linkTarget = linkTarget
            self.escapesRoot = escapesRoot
        }
    }

    public struct Failure: Error, Sendable {
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
                    if (info.st_mode & S_IFMT) == S_IFLNK {
                        target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                        if let resolved = realPath(path) {
                            escapes = !(resolved == realRoot || resolved.hasPrefix(realRoot + "/"))
                            guard stat(path, &info) == 0 else { continue }
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
                    entries.append(Entry(name: name, kind: kind, size: Int(info.st_size), linkTarget: target, escapesRoot: escapes))
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

    /// An in-memory tree: file paths to contents; symlinks as path → target (outside if the target
    /// starts with `/` or climbs out with `..`).
    public static func memory(_ files: [String: [UInt8]], symlinks: [String: String] = [:], displayRoot: String = "content") -> ContentFS {
        ContentFS(
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
                    let escapes = target.hasPrefix("/") || target.hasPrefix("..")
                    entries[name] = Entry(name: name, kind: .file, linkTarget: target, escapesRoot: escapes)
                }
                if entries.isEmpty, !directory.isEmpty { throw Failure("no such directory") }
                return entries.values.sorted { $0.name < $1.name }
            },
            read: { (path: String) throws(Failure) -> [UInt8] in
                guard let bytes = files[path] else { throw Failure("no such file") }
                return bytes
            },
            readPrefix: { (path: String, count: Int) throws(Failure) -> [UInt8] in
                guard let bytes = files[path] else { throw Failure("no such file") }
                return Array(bytes.prefix(count))
            }
        )
    }
}
