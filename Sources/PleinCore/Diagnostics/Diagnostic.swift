/// One problem found in the content, with the file and place it concerns.
public struct Diagnostic: Sendable, Hashable {
    /// The file, relative to the content folder (`users/anna.md`).
    public let file: String
    public let span: Span
    public let problem: Problem

    public init(_ problem: Problem, in file: String, at span: Span = .fileStart) {
        self.file = file
        self.span = span
        self.problem = problem
    }

    public var severity: Severity { problem.severity }

    /// The same diagnostic with `root/` before its path, for showing to the user.
    public func under(_ root: String) -> Diagnostic {
        guard !root.isEmpty, root != "." else { return self }
        return Diagnostic(problem, in: root + "/" + file, at: span)
    }
    public var message: String { problem.message }
    public var suggestion: String? { problem.suggestion }
}

public enum Severity: String, Sendable, Hashable, Codable {
    case error, warning
}

extension Diagnostic: Comparable {
    /// Files in path order, then by position, so reports read top to bottom.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        if lhs.span != rhs.span { return lhs.span < rhs.span }
        return lhs.message < rhs.message
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }
    public var errorCount: Int { count { $0.severity == .error } }
    public var warningCount: Int { count { $0.severity == .warning } }
}
