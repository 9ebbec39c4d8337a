internal import CPleinSystem
import Foundation
public import PleinRender
import Synchronization

/// Writes a new site beside the old one and swaps them in one step, so a failed or killed build
/// leaves the previous output exactly as it was.
public final class OutputWriter: Sendable {
    public let output: String
    let staging: String
    private let createdDirectories = Mutex<Set<String>>([])

    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Prepares an empty staging folder next to `output`, removing leftovers of killed builds.
    public init(output: String) throws(Failure) {
        let trimmed = output.hasSuffix("/") && output.count > 1 ? String(output.dropLast()) : output
        self.output = trimmed
        let url = URL(fileURLWithPath: trimmed)
        let parent = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let prefix = ".\(name).plein-"
        if let leftovers = try? FileManager.default.contentsOfDirectory(atPath: parent) {
            for entry in leftovers where entry.hasPrefix(prefix) {
                try? FileManager.default.removeItem(atPath: parent + "/" + entry)
            }
        }
        staging = parent + "/" + prefix + "staging-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        } catch {
            throw Failure(path: staging, reason: "cannot create the staging folder: \(error.localizedDescription)")
        }
    }

    /// Writes one file into the staging folder.
    public func write(_ file: OutputFile) throws(Failure) {
        let path = staging + "/" + file.path
        try makeParent(of: file.path)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(path: file.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var written = 0
        let count = file.bytes.count
        while written < count {
            let n = file.bytes.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress! + written, count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(path: file.path, reason: String(cString: strerror(errno)))
            }
            written += n
        }
    }

    /// Puts an existing file into the output under `relative`: a hard link when possible (no
    /// bytes copied; the source is never modified), else a copy.
    public func link(_ source: String, as relative: String) throws(Failure) {
        try makeParent(of: relative)
        let target = staging + "/" + relative
        if Glibc.link(source, target) == 0 { return }
        do {
            try FileManager.default.copyItem(atPath: source, toPath: target)
        } catch {
            throw Failure(path: relative, reason: "cannot copy \(source): \(error.localizedDescription)")
        }
    }

    private func makeParent(of relative: String) throws(Failure) {
        guard let slash = relative.lastIndex(of: "/") else { return }
        let directory = String(relative[..<slash])
        if createdDirectories.withLock({ $0.contains(directory) }) { return }
        do {
            try FileManager.default.createDirectory(atPath: staging + "/" + directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(path: directory, reason: error.localizedDescription)
        }
        createdDirectories.withLock { _ = $0.insert(directory) }
    }

    /// Replaces the output with the staging folder. Hidden entries at the top of the old output
    /// (`.git`, `.gitkeep`, a `CNAME` host's dot files) are carried over.
    public func commit() throws(Failure) {
        let fm = FileManager.default
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
            return
        }
        if plein_exchange_paths(staging, output) == 0 {
            try? fm.removeItem(atPath: staging)  // now holds the previous site
            return
        }
        // Without RENAME_EXCHANGE: two renames, with a moment in which the output is missing.
        let old = staging.replacingOccurrences(of: "-staging-", with: "-old-")
        guard rename(output, old) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw Failure(path: output, reason: reason)
        }
        guard rename(staging, output) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(old, output)
            discard()
            throw Failure(path: output, reason: reason)
        }
        try? fm.removeItem(atPath: old)
    }

    /// Removes the staging folder; the output is untouched.
    public func discard() {
        try? FileManager.default.removeItem(atPath: staging)
    }

    /// Recreates a file tree with hard links (directories are created, files linked or copied).
    private func linkTree(_ source: String, to target: String) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: source, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue {
            try? fm.createDirectory(atPath: target, withIntermediateDirectories: true)
            for entry in (try? fm.contentsOfDirectory(atPath: source)) ?? [] {
                linkTree(source + "/" + entry, to: target + "/" + entry)
            }
        } else if Glibc.link(source, target) != 0 {
            try? fm.copyItem(atPath: source, toPath: target)
        }
    }
}
