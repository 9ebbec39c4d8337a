import Foundation
import PleinCore

extension Scaffold {
    /// Files plein writes for the site's owner to keep (CI, issue forms) end with a fingerprint of
    /// what plein wrote, so that `plein new ci --update` can tell a file nobody changed (it is
    /// rewritten) from one its owner changed (it is kept, and said).
    enum Fingerprint {
        static let marker = "# plein-fingerprint: "

        /// `text` with its fingerprint line.
        static func signed(_ text: String) -> String {
            let body = text.hasSuffix("\n") ? text : text + "\n"
            return body + marker + digest(body) + " (plein new ci --update rewrites this file while it is as plein wrote it)\n"
        }

        /// Whether `text` ends with the fingerprint of what is above it: nobody changed it.
        static func isAsWritten(_ text: String) -> Bool {
            text.contains("\n" + marker) && signed(body(of: text)) == text
        }

        /// `text` without its fingerprint line.
        static func body(of text: String) -> String {
            guard let line = text.range(of: "\n" + marker, options: .backwards) else { return text }
            return String(text[..<line.lowerBound]) + "\n"
        }

        static func digest(_ body: String) -> String { String(Hashing.sha256Hex(Array(body.utf8)).prefix(16)) }

        enum Outcome { case written, updated, same, kept, changedByOwner }

        /// Writes `text` (signed) at `path`: a new file; with `update`, over a file that is as
        /// plein wrote it. A file its owner changed is never overwritten.
        static func write(_ text: String, at path: String, update: Bool) throws(Failure) -> Outcome {
            let signed = signed(text)
            guard let existing = try? String(contentsOfFile: path, encoding: .utf8) else {
                _ = try writeNew(path, Array(signed.utf8))
                return .written
            }
            if existing == signed { return .same }
            guard update else { return .kept }
            guard isAsWritten(existing) else { return .changedByOwner }
            do { try signed.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                throw Failure("cannot write \(path): \(error.localizedDescription)")
            }
            return .updated
        }

        /// What `plein new ci` says of a file it did not write.
        static func said(_ outcome: Outcome, _ relative: String) -> String? {
            switch outcome {
            case .kept: return "\(relative) is kept as it is, and differs from what this plein writes: plein new ci --update rewrites it (if you have not changed it)"
            case .changedByOwner: return "\(relative) was changed since plein wrote it (or an older plein wrote it), so --update keeps it: delete it and run plein new ci again to take this plein's"
            case .written, .updated, .same: return nil
            }
        }
    }
}
