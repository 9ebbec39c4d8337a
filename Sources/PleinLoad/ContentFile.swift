public import PleinCore
import Foundation

/// Opens a file of the content folder to publish it, refusing what loading refuses: anything
/// that is not a regular file, any path that leads outside the content folder, and a link to a
/// file it may not stand for (`FileRole.linkRefusal`). The check is
/// made on the opened descriptor, so a file replaced by a symbolic link after the content was
/// listed is refused too; nothing is read through a path that was not checked this way.
public enum ContentFile {
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// An open, read-only descriptor of `relative` under `root`; the caller closes it.
    public static func open(root: String, relative: String) -> Result<Int32, Refusal> {
        func refuse(_ reason: String) -> Result<Int32, Refusal> { .failure(Refusal(path: relative, reason: reason)) }
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else {
            return refuse("not a path inside the content folder")
        }
        guard let realRoot = realPath(root) else { return refuse("the content folder cannot be read") }
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway.
        let fd = Glibc.open(root + "/" + relative, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return refuse(String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return refuse("not a regular file")
        }
        guard let opened = openedPath(fd), opened.hasPrefix(realRoot + "/") else {
            let target = openedPath(fd) ?? "?"
            close(fd)
            return refuse("it leads outside the content folder (to '\(target)')")
        }
        // Through a link (even one made after the content was listed): only where links may lead.
        let reached = String(opened.dropFirst(realRoot.count + 1))
        if reached != relative, let reason = FileRole.linkRefusal(from: relative, to: reached) {
            close(fd)
            return refuse(reason)
        }
        return .success(fd)
    }

    /// The path the kernel opened for `fd` (after every symbolic link).
    static func openedPath(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
