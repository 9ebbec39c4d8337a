import PleinCore
import PleinLoad
import PleinRender

/// Report attachments published as they are (PDFs, sound): which there are, and for a served
/// site a checked copy of each, so the server never reads the content folder.
enum AttachmentStage {
    /// Content path → output path of every attachment that is not an image.
    static func attachments(_ content: Content) -> [(source: String, target: String)] {
        var found: [(String, String)] = []
        for report in content.reports {
            for resource in report.resources where content.images[ContentLayout.attachment(report.id, file: resource)] == nil {
                found.append((ContentLayout.attachment(report.id, file: resource), Routes.attachment(report.id, file: resource)))
            }
        }
        return found
    }

    /// Checked copies (output path → copy in the cache), or the files that were refused.
    static func copies(_ attachments: [(source: String, target: String)], content: Content, root: String,
                       into served: inout ServedCopies) -> Result<[String: String], Refused> {
        var copies: [String: String] = [:]
        var refused: [Diagnostic] = []
        for (source, target) in attachments {
            switch served.copy(root: root, source) {
            case .success(let copy): copies[target] = copy
            case .failure(let refusal): refused.append(Diagnostic(.unreadable(refusal.reason), in: source).under(content.displayRoot))
            }
        }
        guard refused.isEmpty else { return .failure(Refused(diagnostics: refused)) }
        served.prune(keeping: Set(copies.values))
        return .success(copies)
    }

    struct Refused: Error {
        let diagnostics: [Diagnostic]
    }
}
