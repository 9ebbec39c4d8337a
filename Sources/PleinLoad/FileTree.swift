public import PleinCore
/// Every file under the content root, found by walking it, and kept up to date one directory at
/// a time when the dev server learns that something changed.
struct FileTree: Sendable {
    /// File path → size in bytes.
    private(set) var files: [String: Int] = [:]
    private(set) var directories: Set<String> = []
    /// Directory → the names of its entries that plein keeps (files and folders).
    private var children: [String: Set<String>] = [:]
    /// Problems of single entries: symbolic links out of the root, unreadable folders.
    private var problems: [String: Diagnostic] = [:]
    /// Files with more than one name (hard links), with their sizes: one is taken only when all
    /// its names are inside the root, as a name elsewhere is a way to publish any file.
    private var linked: [String: (identity: ContentFS.Entry.Identity, size: Int)] = [:]
    private var hardLinkProblems: [String: Diagnostic] = [:]

    init(_ fs: ContentFS) {
        walk(fs, "", parallelLevels: 2)
        settleHardLinks()
    }

    private init() {}

    var diagnostics: [Diagnostic] {
        let all = problems.merging(hardLinkProblems) { first, _ in first }
        return all.keys.sorted().map { all[$0]! }
    }

    /// Counts the names of each hard-linked file found inside the root: a file with a name
    /// outside is left out.
    private mutating func settleHardLinks() {
        hardLinkProblems = [:]
        guard !linked.isEmpty else { return }
        var names: [ContentFS.Entry.Identity: Int] = [:]
        func key(_ identity: ContentFS.Entry.Identity) -> ContentFS.Entry.Identity {
            ContentFS.Entry.Identity(device: identity.device, inode: identity.inode, links: 0)
        }
        for (_, entry) in linked { names[key(entry.identity), default: 0] += 1 }
        for (path, entry) in linked {
            if names[key(entry.identity), default: 0] < entry.identity.links {
                files.removeValue(forKey: path)
                hardLinkProblems[path] = Diagnostic(.hardLinkOutsideContent(links: entry.identity.links), in: path)
            } else {
                files[path] = entry.size
            }
        }
    }

    /// Files in path order: the order every later stage reads them in.
    var sortedFiles: [(path: String, size: Int)] { files.keys.sorted().map { ($0, files[$0]!) } }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory + "/" + name
    }

    /// Walks `directory`; the folders of its first `parallelLevels` levels are walked in parallel
    /// (a large community has thousands of folders, and listing each is a system call per entry).
    private mutating func walk(_ fs: ContentFS, _ directory: String, parallelLevels: Int = 0) {
        let entries: [ContentFS.Entry]
        do throws(ContentFS.Failure) {
            entries = try fs.list(directory)
        } catch {
            problems[directory.isEmpty ? "." : directory + "/"] = Diagnostic(.unreadable(error.reason), in: directory.isEmpty ? "." : directory + "/")
            return
        }
        var names: Set<String> = []
        var parallel: [String] = []
        for entry in entries {
            if Self.isHidden(entry.name) { continue }
            let path = Self.join(directory, entry.name)
            if entry.escapesRoot {
                problems[path] = Diagnostic(.symlinkOutsideContent(entry.linkTarget ?? "?"), in: path)
                continue
            }
            // A link is followed only to a file it may stand for (`FileRole.linkRefusal`): never to
            // a folder, so walking a tree of links ends.
            switch entry.resolved {
            case .failure(let failure)?:
                problems[path] = Diagnostic(.symlinkRefused(failure.reason), in: path)
                continue
            case .success(let target)? where entry.kind == .directory:
                problems[path] = Diagnostic(.symlinkRefused("it points to a folder ('\(target)'); plein follows a symbolic link only to a file"), in: path)
                continue
            case .success(let target)? where entry.kind == .file:
                if let reason = FileRole.linkRefusal(from: path, to: target) {
                    problems[path] = Diagnostic(.symlinkRefused(reason), in: path)
                    continue
                }
            default: break
            }
            switch entry.kind {
            case .directory:
                names.insert(entry.name)
                directories.insert(path)
                if parallelLevels > 0 { parallel.append(path) } else { walk(fs, path) }
            case .file:
                names.insert(entry.name)
                files[path] = entry.size
                // A file with one name has none outside the root.
                if let identity = entry.identity, identity.links > 1, entry.linkTarget == nil { linked[path] = (identity, entry.size) }
            case .other:
                let reason = entry.linkTarget != nil ? "it is a broken symbolic link" : "it is not a regular file"
                problems[path] = Diagnostic(.unreadable(reason), in: path)
            }
        }
        children[directory] = names
        let subtrees = parallelMap(parallel) { path in
            var tree = FileTree()
            tree.walk(fs, path, parallelLevels: parallelLevels - 1)
            return tree
        }
        for tree in subtrees {
            files.merge(tree.files) { first, _ in first }
            directories.formUnion(tree.directories)
            children.merge(tree.children) { first, _ in first }
            problems.merge(tree.problems) { first, _ in first }
            linked.merge(tree.linked) { first, _ in first }
        }
    }

    /// Forgets a directory's entries (and everything below its subfolders).
    private mutating func forget(_ directory: String) {
        for name in children.removeValue(forKey: directory) ?? [] {
            let path = Self.join(directory, name)
            files.removeValue(forKey: path)
            linked.removeValue(forKey: path)
            if directories.remove(path) != nil { forget(path) }
        }
        for key in problems.keys where key.hasPrefix(directory.isEmpty ? "" : directory + "/") && !key.dropFirst(directory.isEmpty ? 0 : directory.count + 1).contains("/") {
            problems.removeValue(forKey: key)
        }
    }

    /// Takes in a new size for files that were edited in place, when their folders list the
    /// same entries as before and each is still a plain file with one name; and the files
    /// `added`, new in folders the tree has, and those `removed`, gone from them. Returns false,
    /// and changes nothing, when that is not so (another file appeared, vanished or became a
    /// link: the folders are then listed again with `refresh`). `listing` lists a folder as the
    /// caller has listed it already (else `fs` lists it).
    mutating func take(_ fs: ContentFS, edited: Set<String>, added: Set<String>, removed: Set<String> = [],
                       listing: ((String) -> [ContentFS.Entry]?)? = nil) -> Bool {
        var sizes: [String: Int] = [:]
        func name(_ path: String, in directory: String) -> String { String(path.dropFirst(directory.isEmpty ? 0 : directory.count + 1)) }
        for (directory, names) in Dictionary(grouping: edited.union(added).union(removed), by: { Self.parent(of: $0) }) {
            guard directory.isEmpty || directories.contains(directory),
                  let entries = listing.map({ $0(directory) }) ?? (try? fs.list(directory)) else { return false }
            let kept = entries.filter { !Self.isHidden($0.name) }
            let new = Set(names.filter(added.contains).map { name($0, in: directory) })
            let gone = Set(names.filter(removed.contains).map { name($0, in: directory) })
            guard Set(kept.map(\.name)) == (children[directory] ?? []).union(new).subtracting(gone),
                  names.filter(removed.contains).allSatisfy({ files[$0] != nil && linked[$0] == nil }) else { return false }
            for path in names where !removed.contains(path) {
                guard let entry = kept.first(where: { $0.name == name(path, in: directory) }), entry.kind == .file, entry.linkTarget == nil,
                      (entry.identity?.links ?? 1) <= 1, (files[path] == nil) == added.contains(path), linked[path] == nil else { return false }
                sizes[path] = entry.size
            }
        }
        files.merge(sizes) { _, new in new }
        for path in added { children[Self.parent(of: path), default: []].insert(String(path.split(separator: "/").last!)) }
        for path in removed {
            files.removeValue(forKey: path)
            children[Self.parent(of: path)]?.remove(String(path.split(separator: "/").last!))
        }
        return true
    }

    static func isHidden(_ name: String) -> Bool { ContentLayout.isHidden(name) }

    static func parent(of path: String) -> String {
        path.split(separator: "/").dropLast().joined(separator: "/")
    }

    /// Lists `directory` again (walking any new folder in it). A directory that no longer
    /// exists is dropped with everything below it.
    mutating func refresh(_ fs: ContentFS, _ directory: String) {
        // A folder the tree does not know is walked from the nearest one it knows, which lists
        // it among its own (a new album's folder is then one of the tree's, as in a full walk).
        var directory = directory
        while !directory.isEmpty, !directories.contains(directory) { directory = Self.parent(of: directory) }
        forget(directory)
        if !directory.isEmpty, (try? fs.list(directory)) == nil {
            directories.remove(directory)
            let parent = directory.split(separator: "/").dropLast().joined(separator: "/")
            let name = String(directory.split(separator: "/").last ?? "")
            children[parent]?.remove(name)
            settleHardLinks()
            return
        }
        walk(fs, directory)
        settleHardLinks()
    }
}
