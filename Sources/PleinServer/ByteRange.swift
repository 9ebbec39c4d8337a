import Foundation

/// A `Range: bytes=…` request header (RFC 9110, section 14.2), for one range; a request for
/// several ranges is answered whole, which the RFC allows.
enum ByteRange: Equatable {
    case whole
    case part(Range<Int>)
    case unsatisfiable

    static func parse(_ header: String, size: Int) -> ByteRange {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes="), !value.contains(",") else { return .whole }
        let spec = value.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return .whole }
        let first = bounds[0].trimmingCharacters(in: .whitespaces), last = bounds[1].trimmingCharacters(in: .whitespaces)
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit), !(first.isEmpty && last.isEmpty) else { return .whole }
        if first.isEmpty {
            // The last N bytes; a number too long for an Int is longer than any file.
            let suffix = Int(last) ?? .max
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)..<size)
        }
        let start = Int(first) ?? .max
        guard start < size else { return .unsatisfiable }
        let end = last.isEmpty ? size - 1 : min(Int(last) ?? size - 1, size - 1)
        guard end >= start else { return .whole }
        return .part(start..<(end + 1))
    }
}

extension Character {
    /// 0-9 only: `isNumber` also takes other scripts' digits, which `Int(_:)` does not read.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
