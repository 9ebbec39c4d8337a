/// A place in a content file: 1-based line and column (in Unicode scalars) and a length.
public struct Span: Sendable, Hashable, Codable, Comparable {
    public let line: Int
    public let column: Int
    /// How many scalars to underline; at least 1.
    public let length: Int

    public init(line: Int, column: Int, length: Int = 1) {
        self.line = line
        self.column = column
        self.length = max(1, length)
    }

    /// The start of a file: used for problems of a whole file.
    public static let fileStart = Span(line: 1, column: 1)

    public static func < (lhs: Span, rhs: Span) -> Bool {
        (lhs.line, lhs.column, lhs.length) < (rhs.line, rhs.column, rhs.length)
    }
}
