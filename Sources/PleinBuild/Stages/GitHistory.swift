import Foundation
import PleinModel
import PleinCore

/// Reads the content's history from git, in one `git log` per build (never one call per file):
/// for every content file, the first commit that added it and the last that changed it.
///
/// Outside a repository, with a shallow clone or without git, there is no history: the build
/// goes on as before and says once why.
struct GitHistory: Sendable {
    /// The commit the history was read at (`git rev-parse HEAD`); reading again is needed only
    /// when it moves.
    let head: String?
    let history: History
    /// Why there is no history, when there is none.
    let unavailable: String?
    /// What HEAD was made of on disk when the history was read (nil: git is asked every time).
    var stamp: GitStamp?

    static let empty = GitHistory(head: nil, history: History(), unavailable: nil)

    /// Reads the history of the files under `content`, with git started in `environment` (the one
    /// plein was started with, `BuildOptions.environment`: `GIT_DIR`, `HOME` for git's own
    /// settings such as `safe.directory`, `PATH`).
    static func read(content: String, environment: [String: String]) -> GitHistory {
        // The stamp first: a commit made while git is read moves it, and is read at the next update.
        let stamp = GitStamp(content: content, environment: environment)
        var history = unstamped(content: content, environment: environment)
        history.stamp = stamp
        return history
    }

    private static func unstamped(content: String, environment: [String: String]) -> GitHistory {
        let run = { (arguments: [String]) in GitHistory.run(arguments, in: content, environment: environment) }
        guard let inside = run(["rev-parse", "--is-inside-work-tree"]), inside.text == "true" else {
            return GitHistory(head: nil, history: History(), unavailable: "the content is not in a git repository, so pages show no \"edited\" dates")
        }
        guard let head = run(["rev-parse", "HEAD"])?.text else {
            return GitHistory(head: nil, history: History(), unavailable: "the repository has no commits yet, so pages show no \"edited\" dates")
        }
        if run(["rev-parse", "--is-shallow-repository"])?.text == "true" {
            return GitHistory(head: head, history: History(),
                              unavailable: "the repository is a shallow clone, so its history is incomplete and pages show no \"edited\" dates "
                                  + "(clone it whole: git fetch --unshallow, or fetch-depth: 0 in CI)")
        }
        return GitHistory(head: head, history: parse(log(content, environment: environment) ?? []), unavailable: nil)
    }

    /// Reads again only when HEAD has moved since `previous`: when the files HEAD is made of are
    /// as they were, git is not asked at all; when it moved, only the files the commits between
    /// the two touched are read again (`moved`, which are returned), unless git cannot say which
    /// (then the whole history is read, and `moved` is nil).
    static func refresh(_ previous: GitHistory, content: String, environment: [String: String]) -> (history: GitHistory, moved: Set<String>?) {
        let stamp = GitStamp(content: content, environment: environment)
        if let stamp, stamp == previous.stamp { return (previous, []) }
        let now = run(["rev-parse", "HEAD"], in: content, environment: environment)?.text
        guard let head = previous.head, let now else { return (read(content: content, environment: environment), nil) }
        var same = previous
        same.stamp = stamp
        guard now != head else { return (same, []) }
        guard previous.unavailable == nil, let moved = moved(from: head, to: now, content: content, environment: environment) else {
            return (read(content: content, environment: environment), nil)
        }
        var files = previous.history.files
        for file in moved.files { files[file] = moved.history.files[file] }
        return (GitHistory(head: now, history: History(files: files), unavailable: nil, stamp: stamp), moved.files)
    }

    /// `git log -z --format=%x1e%ct --name-only --no-renames --relative`: each commit is
    /// `\u{1e}<time>\0\n<path>\0<path>\0…`, paths relative to the content folder.
    static func log(_ content: String, environment: [String: String]) -> [UInt8]? {
        run(["log", "-z", "--format=%x1e%ct", "--name-only", "--no-renames", "--relative", "--", "."], in: content, environment: environment)?.bytes
    }

    static func parse(_ output: [UInt8]) -> History {
        var files: [String: Revision] = [:]
        for commit in output.split(separator: 0x1E) {
            let fields = commit.split(separator: 0, omittingEmptySubsequences: false)
            guard let first = fields.first, let seconds = Int64(String(decoding: first, as: UTF8.self)) else { continue }
            let when = Moment(seconds: seconds)
            for raw in fields.dropFirst() {
                let path = String(decoding: raw.drop { $0 == 0x0A }, as: UTF8.self)
                guard !path.isEmpty else { continue }
                let known = files[path]
                files[path] = Revision(created: min(known?.created ?? when, when), changed: max(known?.changed ?? when, when))
            }
        }
        return History(files: files)
    }

    /// The content's files whose history differs between commits `old` and `new`: those that a
    /// commit on either side of the two touched (`git log old...new`, so that a commit amended or
    /// dropped counts as well as one made), each with its revision at `new` (none: it has no
    /// history there). Nil when git cannot say (an unknown commit, a shallow clone) or when more
    /// than `limit` files moved: the build then reads the whole history again.
    static func moved(from old: String, to new: String, content: String, environment: [String: String], limit: Int = 2_000)
        -> (files: Set<String>, history: History)? {
        let run = { (arguments: [String]) in GitHistory.run(arguments, in: content, environment: environment) }
        guard !old.isEmpty, !new.isEmpty, run(["rev-parse", "--is-shallow-repository"])?.text == "false",
              let touched = run(["log", "-z", "--format=%x1e%ct", "--name-only", "--no-renames", "--relative", old + "..." + new, "--", "."])
        else { return nil }
        let files = Set(parse(touched.bytes).files.keys)
        guard files.count <= limit else { return nil }
        guard !files.isEmpty else { return ([], History()) }
        // (A log of some files simplifies merges by those files, the whole history's by the
        // content folder: a merge that kept one side's version of these files but took others
        // of the content from the other side hides that side's commits of them from the first,
        // not from the second. The two agree when the log of the files without simplification
        // gives the same; else everything is read.)
        let paths = files.sorted()
        let log = { (simplify: [String]) in
            run(["--literal-pathspecs", "log", "-z", "--format=%x1e%ct", "--name-only", "--no-renames", "--relative"] + simplify + [new, "--"] + paths)
        }
        guard let simplified = log([]), let full = log(["--full-history"]) else { return nil }
        let history = parse(simplified.bytes)
        guard history == parse(full.bytes) else { return nil }
        return (files, history)
    }

    /// Runs git in `folder` with `environment` (and C's messages, no optional locks); nil when it
    /// fails (or git is not installed). An empty environment (the tests') finds git on the
    /// system's default path.
    static func run(_ arguments: [String], in folder: String, environment: [String: String]) -> (bytes: [UInt8], text: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder, "-c", "core.quotepath=off"] + arguments
        var environment = environment
        environment["LC_ALL"] = "C"
        environment["GIT_OPTIONAL_LOCKS"] = "0"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let bytes = Array(data)
        return (bytes, String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// What git's HEAD is made of on disk, by each file's identity (inode, size, modification time):
/// `.git/HEAD`, the branch it names, `packed-refs` and `shallow`. While these are the same,
/// HEAD has not moved, and `plein serve` need not start git to find out after every edit.
/// Outside a repository, the stamp is that no folder above the content holds a `.git`, so
/// that a `git init` is seen too. Nil where git's layout is not this plain one (a worktree or
/// submodule, whose `.git` is a file; refs in a reftable; `GIT_DIR` set): git is then asked
/// every time.
struct GitStamp: Equatable, Sendable {
    private let identities: [String: FileIdentity?]

    struct FileIdentity: Equatable, Sendable {
        let inode: UInt64
        let size: Int64
        let modified: Int64
        let modifiedNanoseconds: Int
    }

    init?(content: String, environment: [String: String]) {
        guard environment["GIT_DIR"] == nil, environment["GIT_WORK_TREE"] == nil, environment["GIT_CEILING_DIRECTORIES"] == nil,
              let real = realpath(content, nil) else { return nil }
        var folder = String(cString: real)
        free(real)
        var identities: [String: FileIdentity?] = [:]
        while true {
            let dotGit = (folder == "/" ? "" : folder) + "/.git"
            var info = stat()
            if lstat(dotGit, &info) == 0 {
                // (Refs kept in a reftable are not files of their own.)
                guard info.st_mode & S_IFMT == S_IFDIR, access(dotGit + "/reftable", F_OK) != 0 else { return nil }
                identities[dotGit] = FileIdentity(inode: UInt64(info.st_ino), size: 0, modified: 0, modifiedNanoseconds: 0)
                let head = dotGit + "/HEAD"
                for file in [head, dotGit + "/packed-refs", dotGit + "/shallow"] { identities[file] = Self.identity(file) }
                if let text = try? String(contentsOfFile: head, encoding: .utf8), text.hasPrefix("ref: ") {
                    let ref = text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)
                    guard !ref.contains("..") else { return nil }
                    identities[dotGit + "/" + ref] = Self.identity(dotGit + "/" + ref)
                }
                break
            }
            identities[dotGit] = .some(nil)
            if folder == "/" { break }
            folder = (folder as NSString).deletingLastPathComponent
        }
        self.identities = identities
    }

    /// The stamp as one line per file, in path order: what the build store keeps.
    var text: String {
        identities.keys.sorted().map { path in
            guard let known = identities[path] ?? nil else { return path + " -" }
            return "\(path) \(known.inode) \(known.size) \(known.modified).\(known.modifiedNanoseconds)"
        }.joined(separator: "\n")
    }

    private static func identity(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec),
                            modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
    }
}

/// Paths as a forge names them: from the root of the repository the current folder is in
/// (or from the current folder outside a repository).
public struct RepositoryPath: Sendable {
    let root: String?
    let current: String

    public init(environment: [String: String]) {
        current = FileManager.default.currentDirectoryPath
        root = GitHistory.run(["rev-parse", "--show-toplevel"], in: current, environment: environment)?.text
    }

    /// `content/users/anna.md` (relative to the current folder) → `site/content/users/anna.md`.
    public func relative(_ path: String) -> String {
        guard let root else { return path }
        let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: current + "/")).standardizedFileURL.path
        let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
        for base in [root, realRoot] where absolute.hasPrefix(base + "/") || resolved.hasPrefix(base + "/") {
            let full = absolute.hasPrefix(base + "/") ? absolute : resolved
            return String(full.dropFirst(base.count + 1))
        }
        return path
    }
}
