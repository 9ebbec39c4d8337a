internal import CPleinSystem
import PleinLoad
import Foundation
public import PleinRender
import PleinCore
import Synchronization

/// Writes a new site beside the old one and swaps them in one step, so a failed or killed build
/// leaves the previous output exactly as it was.
///
/// The site before the previous one is kept as a spare (`.public.plein-spare` beside the output)
/// and becomes the next build's staging folder: its folders are reused and its files kept where
/// their bytes are still right, so a rebuild creates, links and deletes only what changed
/// (creating folders is the slowest thing a build asks of ext4). The two trees share unchanged
/// files as hard links, and a shared file is never written into: it is replaced by a new one. A
/// file of the staging folder that nothing shares is written in place from its first byte that
/// changed (the staging folder is not the output until the swap), and one that is to hold what
/// the output holds gets its bytes in place (`keep`), so that the trees, once apart in a path,
/// keep their two files there rather than make one and let one go. Nothing else is shared: files
/// from plein's cache (image variants, videos, search indexes) and from the content folder
/// (attachments) are copied, so the output owns its bytes, and writing into it changes neither
/// the cache nor the content.
public final class OutputWriter: Sendable {
    public let output: String
    let staging: String
    let spare: String
    /// Whether the staging folder is a recycled earlier site (else it started empty).
    let recycled: Bool
    /// When the build store vouches for the recycled site: the paths in which it differs from
    /// the current output (see `init(output:recycle:knownSpare:)`).
    private let knownDifferences: Set<String>?
    /// What the recycled staging folder held when the build began: relative paths.
    private let oldFiles: Set<String>
    private let oldDirectories: Set<String>
    /// Whether there is a current output to hard-link equal files from (a first build has none,
    /// and then looks for none: at 10,000 reports that was 30,000 failed opens).
    private let hasOutput: Bool
    private let madeDirectories = Mutex<Set<String>>([])
    private let writtenFiles = Mutex<Set<String>>([])
    /// Whether a path was taken out of the staging folder (`remove`).
    private let removedAny = Mutex(false)
    /// For a build the store has no snapshot for (`vouching`): the paths whose new file may not
    /// be the current output's bytes, and what the current output holds (walked while the build
    /// renders), so that the output it replaces can become a spare the store vouches for.
    private let unlike = Mutex<Set<String>>([])
    private let vouching: Bool
    private let currentTree: Background<(files: Set<String>, directories: Set<String>)>?
    /// What `commit` did with the output it replaced: made it the spare, or found none.
    private let placed = Mutex(Placed.not)
    private enum Placed { case not, swapped, first }

    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Prepares the staging folder next to `output`: the spare site when there is one (and
    /// `recycle` is on), else an empty folder. Leftovers of killed builds are removed.
    public convenience init(output: String, recycle: Bool = true) throws(Failure) {
        try self.init(output: output, recycle: recycle, knownSpare: nil)
    }

    /// With `knownSpare`, the build store vouches for the spare: it is the site the current
    /// output replaced, and differs from it exactly in those paths. The spare is then not walked,
    /// and a build that renders only what an edit touched fixes up only those paths (`keep`,
    /// `remove`), so its cost follows the edit, not the size of the site.
    ///
    /// With `vouching` (a build the store has no snapshot for), the writer notes what it needs to
    /// leave a spare the store can vouch for after all (`vouchForSpare`): else the first edit
    /// after a fresh build would have no spare to write into, and would go the whole way.
    init(output: String, recycle: Bool = true, knownSpare: Set<String>?, vouching: Bool = false) throws(Failure) {
        let trimmed = output.hasSuffix("/") && output.count > 1 ? String(output.dropLast()) : output
        self.output = trimmed
        let url = URL(fileURLWithPath: trimmed)
        let parent = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent).plein-"
        spare = Self.sparePath(for: trimmed)
        staging = parent + "/" + prefix + "staging-\(getpid())"
        var info = stat()
        hasOutput = lstat(trimmed, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        self.vouching = vouching && knownSpare == nil
        if self.vouching, hasOutput {
            currentTree = Background {
                var files: Set<String> = [], directories: Set<String> = []
                Self.walk(trimmed, "", files: &files, directories: &directories)
                return (files, directories)
            }
        } else {
            currentTree = nil
        }
        // `--output some/new/public`: the folders above it are made, as other generators do.
        if lstat(parent, &info) != 0 {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw Failure(path: parent, reason: "cannot create the output's folder: \(error.localizedDescription)")
            }
        }
        if let leftovers = try? FileManager.default.contentsOfDirectory(atPath: parent) {
            for entry in leftovers where entry.hasPrefix(prefix) && parent + "/" + entry != spare {
                // A killed build's staging folder serves as the spare when there is none: every
                // file in it is compared before it is kept.
                if entry.hasPrefix(prefix + "staging-"), lstat(spare, &info) != 0, rename(parent + "/" + entry, spare) == 0 { continue }
                _ = plein_remove_tree(parent + "/" + entry)
            }
        }
        if recycle, lstat(spare, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, rename(spare, staging) == 0 {
            recycled = true
            knownDifferences = knownSpare
            if knownSpare != nil {
                oldFiles = []
                oldDirectories = []
                return
            }
            var files: Set<String> = []
            var directories: Set<String> = []
            Self.walk(staging, "", files: &files, directories: &directories)
            oldFiles = files
            oldDirectories = directories
            return
        }
        if lstat(spare, &info) == 0 { _ = plein_remove_tree(spare) }
        recycled = false
        knownDifferences = nil
        oldFiles = []
        oldDirectories = []
        guard mkdir(staging, 0o755) == 0 else {
            throw Failure(path: staging, reason: "cannot create the staging folder: \(String(cString: strerror(errno)))")
        }
    }

    /// Puts one file into the staging folder: kept when the recycled file already holds these
    /// bytes, written in place when that file is the staging folder's own, else hard-linked from
    /// the current output when that one holds them, or written anew.
    public func write(_ file: OutputFile) throws(Failure) {
        let path = staging + "/" + file.path
        writtenFiles.locked { _ = $0.insert(file.path) }
        try makeParent(of: file.path)
        if oldDirectories.contains(file.path) { _ = plein_remove_tree(path) }
        let current = output + "/" + file.path
        if knownDifferences != nil || oldFiles.contains(file.path) {
            let staged = Self.compare(path, file.bytes)
            if case .same = staged {
                // (Kept: the current output's file is this one when the two trees share it.)
                if vouching, !Self.sameFile(path, current) { noteUnlike(file.path) }
                return
            }
            // (A file of its own is written in place: no file is made or let go, and the current
            // output's is not read to see whether it could be shared. A new title rewrote 19,000.)
            if case .differs(let common, true) = staged, Self.rewrite(path, file.bytes, from: common) {
                noteUnlike(file.path)
                return
            }
            // (Else the current output's file, when it holds these bytes, is shared rather than copied.)
            let linked = hasOutput && Self.holds(current, file.bytes)
            guard unlink(path) == 0 || errno == ENOENT else { throw Failure(path: file.path, reason: String(cString: strerror(errno))) }
            if linked, Glibc.link(current, path) == 0 { return }
            noteUnlike(file.path)
            return try Self.create(path, file)
        }
        if hasOutput, Self.holds(current, file.bytes), Glibc.link(current, path) == 0 { return }
        noteUnlike(file.path)
        try Self.create(path, file)
    }

    /// Puts a copy of a file plein made in its cache (an image variant, a video, a search index
    /// file) into the output under `relative`. A copy, not a link: the output owns its bytes, so
    /// a deploy step that writes into `public/` cannot change the cache, nor the cache the output.
    public func copy(_ source: String, as relative: String) throws(Failure) {
        // Most files of a rebuild are copied already: that is seen without opening the source.
        var info = stat()
        guard lstat(source, &info) == 0 else { throw Failure(path: relative, reason: "cannot read \(source): \(String(cString: strerror(errno)))") }
        guard let target = try makeRoom(for: relative, unless: { FileCopy.isCopy($0, of: info) }) else { return keptCopy(relative) }
        noteUnlike(relative)
        let fd = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw Failure(path: relative, reason: "cannot read \(source): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        if let reason = FileCopy.copy(from: fd, to: target) { throw Failure(path: relative, reason: reason) }
    }

    /// Puts a copy of a file of the content folder (a report's attachment) into the output under
    /// `relative`, opened through `ContentFile`: a file that leads outside the content folder,
    /// even one swapped for a link after loading, is refused. The copy is made from the opened
    /// file itself, so what was checked is what is published; and never a link, so writing into
    /// the published file cannot change the content.
    public func copyContent(root: String, _ source: String, as relative: String) throws(Failure) {
        let fd: Int32
        switch ContentFile.open(root: root, relative: source) {
        case .success(let opened): fd = opened
        case .failure(let refusal): throw Failure(path: relative, reason: "cannot publish \(root)/\(refusal)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(path: relative, reason: String(cString: strerror(errno))) }
        guard let target = try makeRoom(for: relative, unless: { FileCopy.isCopy($0, of: info) }) else { return keptCopy(relative) }
        noteUnlike(relative)
        if let reason = FileCopy.copy(from: fd, to: target) { throw Failure(path: relative, reason: reason) }
    }

    /// With `vouching`: notes a path whose new file may not be the current output's (a file
    /// written or copied anew).
    private func noteUnlike(_ relative: String) {
        if vouching { unlike.locked { _ = $0.insert(relative) } }
    }

    /// With `vouching`: a copy the recycled folder held already is unlike the output's file
    /// unless the two trees share it. (Counting every kept copy cost the first edit after a full
    /// build at 100,000 reports with search a link for each of 105,000 search files: 0.8 s, and
    /// 12–33 s when the system no longer held their folders.)
    private func keptCopy(_ relative: String) {
        if vouching, !Self.sameFile(staging + "/" + relative, output + "/" + relative) { noteUnlike(relative) }
    }

    /// Makes room in the staging folder for `relative`: nil when the recycled folder's file there
    /// is already right (`isRight`), else the free path to put it at.
    private func makeRoom(for relative: String, unless isRight: (String) -> Bool) throws(Failure) -> String? {
        writtenFiles.locked { _ = $0.insert(relative) }
        try makeParent(of: relative)
        let target = staging + "/" + relative
        if oldDirectories.contains(relative) { _ = plein_remove_tree(target) }
        if knownDifferences != nil || oldFiles.contains(relative) {
            if isRight(target) { return nil }
            _ = unlink(target)
        }
        return target
    }

    /// Puts into the staging folder an output the build did not render again (its bytes are
    /// those of the current output): nothing to do when the store vouches that the spare
    /// already holds it, else the current output's bytes: written into the staging folder's file
    /// there when nothing else shares it (and it is not large), or a hard link to the output's
    /// file. The output and the spare are both plein's own; plein never writes into a file the
    /// output has.
    func keep(_ relative: String) throws(Failure) {
        if let knownDifferences, !knownDifferences.contains(relative) { return }
        var info = stat()
        guard lstat(output + "/" + relative, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(path: output + "/" + relative, reason: "the last build's file is gone (was the output changed by hand?); the next build redoes everything")
        }
        let source = output + "/" + relative
        guard let target = try makeRoom(for: relative, unless: { path in
            var old = stat()
            guard lstat(path, &old) == 0 else { return false }
            if info.st_ino == old.st_ino && info.st_dev == old.st_dev { return true }
            // (A file of the staging folder that nothing shares, of a page's size, is brought up
            // to the output's bytes in place rather than let go for a link: no file is made or
            // let go. On ext4 without a journal, making a file where thousands were let go in
            // the last minutes searches past each of them: after a new title, the next build's
            // render took 1–2 s longer.)
            return (old.st_mode & S_IFMT) == S_IFREG && old.st_nlink == 1 && info.st_size <= Self.copiedInPlaceUpTo
                && Self.copyInPlace(from: source, to: path)
        }) else { return }
        if Glibc.link(source, target) == 0 { return }
        noteUnlike(relative)
        let fd = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw Failure(path: relative, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        if let reason = FileCopy.copy(from: fd, to: target) { throw Failure(path: relative, reason: reason) }
    }

    /// The largest file `keep` copies into the staging folder's own file rather than link
    /// (a map of ninety megabytes is linked: copying it costs more than a file let go).
    static let copiedInPlaceUpTo = off_t(1 << 20)

    /// Takes out of a vouched-for spare a path the new site does not have, and the folders it
    /// leaves empty.
    func remove(_ relative: String) {
        guard knownDifferences != nil else { return }
        removedAny.locked { $0 = true }
        Self.unlinkPruning(staging, relative)
    }

    /// Whether nothing was put into the staging folder, kept there or taken out of it: after a
    /// build that stopped before its outputs (errors in the content), a recycled spare goes back
    /// exactly as it was (`discard`).
    var stagingUntouched: Bool { writtenFiles.locked { $0.isEmpty } && !removedAny.locked { $0 } }

    /// Creates the folders of a path that the staging folder lacks (POSIX `mkdir`, remembered:
    /// FileManager's is slow here). A file standing where a folder must be is removed.
    private func makeParent(of relative: String) throws(Failure) {
        guard let slash = relative.lastIndex(of: "/") else { return }
        let directory = String(relative[..<slash])
        if madeDirectories.locked({ $0.contains(directory) }) { return }
        try makeParent(of: directory)
        if !oldDirectories.contains(directory) {
            if oldFiles.contains(directory) { _ = unlink(staging + "/" + directory) }
            if mkdir(staging + "/" + directory, 0o755) != 0, errno != EEXIST {
                throw Failure(path: directory, reason: String(cString: strerror(errno)))
            }
        }
        madeDirectories.locked { _ = $0.insert(directory) }
    }

    /// Removes what the recycled site had and the new one has not, then replaces the output
    /// with the staging folder in one step; the previous output becomes the spare. Hidden
    /// entries at the top of the output (`.git`, `.gitkeep`, a host's dot files) are carried over.
    public func commit() throws(Failure) {
        // (The walk of the output this build replaces ends before the swap: after it, the
        // output's path names the new site.)
        _ = currentTree?.value
        let fm = FileManager.default
        if recycled, knownDifferences == nil {
            let written = writtenFiles.locked { $0 }
            let made = madeDirectories.locked { $0 }
            for file in oldFiles where !written.contains(file) {
                _ = unlink(staging + "/" + file)
            }
            // Deepest first, so a folder is empty when its turn comes.
            for directory in oldDirectories.sorted(by: { $0.count > $1.count }) where !made.contains(directory) && !written.contains(directory) {
                if rmdir(staging + "/" + directory) != 0, errno == ENOTEMPTY { _ = plein_remove_tree(staging + "/" + directory) }
            }
        }
        if recycled {
            // Hidden top-level entries come from the current output, as they are now.
            for entry in (try? fm.contentsOfDirectory(atPath: staging)) ?? [] where entry.hasPrefix(".") {
                _ = plein_remove_tree(staging + "/" + entry)
            }
        }
        var isDirectory: ObjCBool = false
        let exists = fm.fileExists(atPath: output, isDirectory: &isDirectory)
        if exists, !isDirectory.boolValue {
            discard()
            throw Failure(path: output, reason: "exists and is not a folder")
        }
        if exists, let entries = try? fm.contentsOfDirectory(atPath: output) {
            for entry in entries where entry.hasPrefix(".") && !fm.fileExists(atPath: staging + "/" + entry) {
                linkTree(output + "/" + entry, to: staging + "/" + entry)
            }
        }
        if !exists {
            guard rename(staging, output) == 0 else {
                let reason = String(cString: strerror(errno))
                discard()
                throw Failure(path: output, reason: reason)
            }
            placed.locked { $0 = .first }
            return
        }
        if plein_exchange_paths(staging, output) == 0 {
            // The staging folder now holds the previous site: the next build's spare.
            if rename(staging, spare) != 0 { _ = plein_remove_tree(staging) } else { placed.locked { $0 = .swapped } }
            return
        }
        // Without RENAME_EXCHANGE: two renames, with a moment in which the output is missing.
        guard rename(output, spare) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw Failure(path: output, reason: reason)
        }
        guard rename(staging, output) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(spare, output)
            discard()
            throw Failure(path: output, reason: reason)
        }
        placed.locked { $0 = .swapped }
    }

    /// After `commit`, for a build with `vouching`: makes the spare (the output this build
    /// replaced) one the store can vouch for, by taking out of it every file and folder the new
    /// site lacks, and gives the paths in which it may still differ from the new output (the
    /// files this build did not share with the one it replaced). Where there was no output, the
    /// spare is an empty folder that differs in every path (the first edit links them all into
    /// it: a fraction of a full build). Nil when it cannot be vouched for.
    func vouchForSpare() -> Set<String>? {
        guard vouching else { return nil }
        switch placed.locked({ $0 }) {
        case .not: return nil
        case .first:
            // (Only when there was no output all along: a file linked from one removed during
            // the build is no difference the writer noted.)
            var info = stat()
            guard !hasOutput, lstat(spare, &info) != 0, mkdir(spare, 0o755) == 0 else { return nil }
            return unlike.locked { $0 }
        case .swapped: break
        }
        guard let currentTree else { return nil }
        let (files, directories) = currentTree.value
        let written = writtenFiles.locked { $0 }
        let made = madeDirectories.locked { $0 }
        for file in files where !written.contains(file) {
            guard unlink(spare + "/" + file) == 0 || errno == ENOENT else { return nil }
        }
        // Deepest first, so a folder is empty when its turn comes.
        for directory in directories.sorted(by: { $0.count > $1.count }) where !made.contains(directory) && !written.contains(directory) {
            if rmdir(spare + "/" + directory) != 0, errno != ENOENT {
                guard errno == ENOTEMPTY, plein_remove_tree(spare + "/" + directory) == 0 else { return nil }
            }
        }
        return unlike.locked { $0 }
    }

    /// Gives up the staging folder; the output is untouched. A recycled folder stays the spare
    /// (whatever it holds now, the next build compares every file anyway).
    public func discard() {
        if recycled, rename(staging, spare) == 0 { return }
        _ = plein_remove_tree(staging)
    }
}
