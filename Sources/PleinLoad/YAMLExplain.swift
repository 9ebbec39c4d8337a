public import PleinCore
import Foundation

/// Turns the YAML parser's messages for the common mistakes into plain words, pointing at the
/// line the author has to change (the parser often notices a mistake a line later, where it
/// stops making sense).
enum YAMLExplain {
    struct Explanation: Equatable {
        let message: String
        let hint: String?
        /// 1-based, within the YAML text.
        let line: Int
        let column: Int
        let length: Int
    }

    /// - Parameters:
    ///   - problem: the parser's problem (`mapping values are not allowed in this context`).
    ///   - context: what it was doing (`while scanning a quoted scalar`) and where (1-based).
    ///   - line, column: where it noticed the problem (1-based).
    static func explain(problem: String, context: (text: String, line: Int, column: Int)?, line: Int, column: Int, yaml: String)
        -> Explanation?
    {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.prefix { $0 != "\r" }) }
        func text(_ number: Int) -> String? { number >= 1 && number <= lines.count ? lines[number - 1] : nil }

        // A tab where indentation should be.
        if problem.contains("tab") || problem.contains("cannot start any token") {
            for number in stride(from: min(line, lines.count), through: max(1, line - 2), by: -1) {
                guard let row = text(number), let tab = row.prefix(while: { $0 == " " || $0 == "\t" }).firstIndex(of: "\t") else { continue }
                return Explanation(message: "this line is indented with a tab; YAML indents with spaces only",
                                   hint: "replace the tab by spaces", line: number, column: row.distance(from: row.startIndex, to: tab) + 1, length: 1)
            }
        }
        // A quote that is never closed.
        if let context, context.text.contains("quoted scalar") {
            let quote = text(context.line).map { Array($0) }.flatMap { $0.indices.contains(context.column - 1) ? String($0[context.column - 1]) : nil } ?? "\""
            return Explanation(message: "the text that starts with \(quote) here is never closed",
                               hint: "end it with another \(quote) on the same line", line: context.line, column: context.column, length: 1)
        }
        // `name: 'Siobhan O'Reilly'`: an apostrophe ends a text in single quotes, and what follows
        // it makes no sense to the parser.
        if let row = text(line), let (key, indent) = fieldStart(row) {
            let value = Array(row.dropFirst(indent + key.count + 1).drop { $0 == " " })
            if value.first == "'", let close = value.dropFirst().firstIndex(of: "'"), close + 1 < value.count,
               value[close + 1] != " ", value[close + 1] != "'", value[close + 1] != "#" {
                let last = value.lastIndex(of: "'")!
                let inner = String(value[1..<(last > close ? last : value.count)])
                return Explanation(
                    message: "the ' in '\(inner)' ends the text that starts with ' before it",
                    hint: "write it twice inside single quotes ('\(inner.replacingOccurrences(of: "'", with: "''"))'), or use double quotes (\"\(inner)\")",
                    line: line, column: row.count - value.count + close + 1, length: 1)
            }
        }
        let mappingProblem = problem.contains("mapping values are not allowed") || problem.contains("could not find expected ':'")
        // `name:Daan`: a colon without a space after it makes no field.
        if mappingProblem || problem.contains("did not find expected key") {
            let first = max(1, min(context?.line ?? line, line) - 1)
            for number in stride(from: min(line, lines.count), through: first, by: -1) {
                guard let row = text(number), let (key, colon) = keyWithoutSpace(row) else { continue }
                return Explanation(message: "'\(key):' needs a space after the colon to be a field",
                                   hint: "write '\(key): \(row.dropFirst(colon + 1))'", line: number, column: colon + 1, length: 1)
            }
        }
        // `title: Zicht: 8 meter`: a value holding ': ' reads as a second field.
        if problem.contains("mapping values are not allowed"), let row = text(line), let (key, _) = fieldStart(row),
           let firstColon = row.firstIndex(of: ":"), column - 1 > row.distance(from: row.startIndex, to: firstColon) {
            let value = row.dropFirst(row.distance(from: row.startIndex, to: firstColon) + 1).drop { $0 == " " }
            return Explanation(message: "the text of '\(key)' holds ': ', which YAML reads as the start of another field",
                               hint: "put the text in quotes: \(key): \"\(value.replacingOccurrences(of: "\"", with: "\\\""))\"",
                               line: line, column: column, length: 1)
        }
        // Fields of one map that do not line up.
        if mappingProblem || problem.contains("did not find expected key") || problem.contains("expected '-' indicator") {
            return misaligned(lines: lines, line: line)
        }
        return nil
    }

    /// `name:Daan` → ("name", offset of the colon); not `https://…` or `12:30`.
    static func keyWithoutSpace(_ row: String) -> (String, Int)? {
        let trimmed = row.drop { $0 == " " || $0 == "-" }
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let key = trimmed[..<colon]
        let after = trimmed[trimmed.index(after: colon)...]
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }),
              let next = after.first, next != " ", next != "/", !key.allSatisfy(\.isNumber) else { return nil }
        return (String(key), row.distance(from: row.startIndex, to: colon))
    }

    /// `  years: 12` → ("years", 2).
    static func fieldStart(_ row: String) -> (String, Int)? {
        let indent = row.prefix { $0 == " " }.count
        let rest = row.dropFirst(indent)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let key = rest[..<colon]
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else { return nil }
        return (String(key), indent)
    }

    /// The line whose indentation differs from the fields around it: the line before the one
    /// the parser stopped at, when that one lines up with the lines around it, else this one.
    static func misaligned(lines: [String], line: Int) -> Explanation? {
        func field(_ number: Int) -> (key: String, indent: Int)? {
            guard number >= 1, number <= lines.count else { return nil }
            return fieldStart(lines[number - 1]).map { (key: $0.0, indent: $0.1) }
        }
        func previous(_ number: Int) -> Int? {
            var n = number - 1
            while n >= 1 {
                if !lines[n - 1].trimmingWhitespace.isEmpty, !lines[n - 1].trimmingWhitespace.hasPrefix("#") { return n }
                n -= 1
            }
            return nil
        }
        guard let here = field(line) ?? field(previous(line) ?? 0) else { return nil }
        let hereLine = field(line) != nil ? line : previous(line)!
        guard let before = previous(hereLine), let above = field(before) else { return nil }
        let twoAbove = previous(before).flatMap(field)
        if above.indent != here.indent, twoAbove?.indent == here.indent {
            // The line above is the odd one out: its neighbours agree with each other.
            return Explanation(message: "'\(above.key)' is indented \(spaces(above.indent)), the fields around it \(spaces(here.indent))",
                               hint: "fields of one map start in the same column: indent '\(above.key)' by \(spaces(here.indent))",
                               line: before, column: 1, length: max(1, above.indent + above.key.count))
        }
        return Explanation(message: "'\(here.key)' is indented \(spaces(here.indent)), but '\(above.key)' above it \(spaces(above.indent))",
                           hint: "fields of one map start in the same column; a field that holds others ends with ':' and nothing after it",
                           line: hereLine, column: 1, length: max(1, here.indent + here.key.count))
    }

    static func spaces(_ count: Int) -> String { count == 1 ? "1 space" : "\(count) spaces" }
}
