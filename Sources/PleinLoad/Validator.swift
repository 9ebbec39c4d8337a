public import PleinCore
import Foundation
internal import Yams

/// Checks a composed YAML tree against a `FieldType` and produces typed values, collecting a
/// diagnostic for every mismatch instead of stopping at the first.
struct Validator {
    let file: String
    let clock: SiteClock
    /// Added to YAML line numbers: front matter starts on the file's second line.
    let lineOffset: Int
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String, clock: SiteClock, lineOffset: Int) {
        self.file = file
        self.clock = clock
        self.lineOffset = lineOffset
    }

    mutating func report(_ problem: Problem, at span: Span) {
        diagnostics.append(Diagnostic(problem, in: file, at: span))
    }

    func span(of node: Node) -> Span {
        guard let mark = node.mark else { return Span(line: 1 + lineOffset, column: 1) }
        var length = 1
        if case .scalar(let scalar) = node, !scalar.string.containsByte(10) {
            length = scalar.string.unicodeScalars.count
            if scalar.style == .singleQuoted || scalar.style == .doubleQuoted { length += 2 }
        }
        return Span(line: mark.line + lineOffset, column: mark.column, length: length)
    }

    /// Validates the document root; a missing root (empty YAML) counts as an empty object or list.
    mutating func validateRoot(_ node: Node?, as type: FieldType) -> ValueNode {
        let start = Span(line: 1 + lineOffset, column: 1)
        guard let node, !isNull(node) else {
            switch type {
            case .object(let fields):
                for field in fields where field.required { report(.missingField(field.name), at: start) }
                return ValueNode(value: .object(ObjectValue(fields: [:], span: start)), span: start)
            default:
                return ValueNode(value: .list([]), span: start)
            }
        }
        return validate(node, as: type) ?? ValueNode(value: .object(.init(fields: [:], span: start)), span: start)
    }

    /// Plain `~`, `null` and empty scalars mean "not given".
    func isNull(_ node: Node) -> Bool {
        guard case .scalar(let s) = node, s.style == .plain || s.style == .any else { return false }
        switch s.string {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    private func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s):
            let text = s.string.count > 40 ? String(s.string.prefix(37)) + "…" : s.string
            return "'\(text)'"
        case .mapping: return "a map"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    /// The text of a scalar, or a type diagnostic.
    private mutating func scalarText(_ node: Node, expecting type: FieldType) -> String? {
        guard case .scalar(let s) = node else {
            report(.wrongType(expected: type.expectation, found: describe(node)), at: span(of: node))
            return nil
        }
        return CleanText.cleanLine(s.string).trimmingSpaces()
    }

    mutating func validate(_ node: Node, as type: FieldType) -> ValueNode? {
        let here = span(of: node)
        func done(_ value: Value) -> ValueNode { ValueNode(value: value, span: here) }
        switch type {
        case .string:
            guard let text = scalarText(node, expecting: type) else { return nil }
            return done(.string(text))

        case .slug:
            guard let text = scalarText(node, expecting: type) else { return nil }
            guard Slug.isValid(text) else {
                report(.invalidSlug(text, suggestion: Slug.make(text)), at: here)
                return nil
            }
            return done(.string(text))

        case .memberRef:
            guard let text = scalarText(node, expecting: type) else { return nil }
            if text.contains("@") {
                guard Email.isValid(text) else {
                    report(.invalidEmail(text), at: here)
                    return nil
                }
            } else if !Slug.isValid(text) {
                report(.invalidSlug(text, suggestion: Slug.make(text)), at: here)
                return nil
            }
            return done(.string(text))

        case .email:
            guard let text = scalarText(node, expecting: type) else { return nil }
            guard Email.isValid(text) else {
                report(.invalidEmail(text), at: here)
                return nil
            }
            return done(.string(text))

        case .integer(let min, let max):
            guard let text = scalarText(node, expecting: type) else { return nil }
            guard let value = Int(text.replacingOccurrences(of: "_", with: "")) else {
                report(.wrongType(expected: type.expectation, found: describe(node)), at: here)
                return nil
            }
            if let min, value < min {
                if min == 1 {
                    report(.notPositive(field: "value", value: value), at: here)
                } else {
                    report(.outOfRange(field: "value", value: text, range: rangeText(min, max)), at: here)
                }
                return nil
            }
            if let max, value > max {
                report(.outOfRange(field: "value", value: text, range: rangeText(min, max)), at: here)
                return nil
            }
            return done(.int(value))

        case .number(let min, let max):
            guard let text = scalarText(node, expecting: type) else { return nil }
            guard let value = Double(text), value.isFinite else {
                report(.wrongType(expected: type.expectation, found: describe(node)), at: here)
                return nil
            }
            guard value >= min, value <= max else {
                report(.outOfRange(field: "value", value: text, range: "\(trim(min)) to \(trim(max))"), at: here)
                return nil
            }
            return done(.number(value))

        case .boolean:
            guard let text = scalarText(node, expecting: type) else { return nil }
            switch text.lowercased() {
            case "true", "yes": return done(.bool(true))
            case "false", "no": return done(.bool(false))
            default:
                report(.wrongType(expected: type.expectation, found: describe(node)), at: here)
                return nil
            }

        case .moment:
            guard let text = scalarText(node, expecting: type) else { return nil }
            switch ISO8601.parse(text) {
            case .failure(let failure):
                report(.invalidDate(text, reason: failure.reason), at: here)
                return nil
            case .success(.date(let civil)):
                return done(.moment(Moment(seconds: clock.instant(of: civil), isDateOnly: true)))
            case .success(.zoned(let civil, let offset)):
                return done(.moment(Moment(seconds: civil.secondsAsUTC - Int64(offset))))
            case .success(.local(let civil)):
                let seconds = clock.instant(of: civil)
                let assumed = clock.rfc3339(Moment(seconds: seconds))
                report(.missingUTCOffset(text, assumed: assumed), at: here)
                return done(.moment(Moment(seconds: seconds)))
            }

        case .url:
            guard let text = scalarText(node, expecting: type) else { return nil }
            if let problem = URLCheck.problem(text) {
                report(.invalidURL(text, reason: problem), at: here)
                return nil
            }
            return done(.string(text))

        case .timeZone:
            guard let text = scalarText(node, expecting: type) else { return nil }
            guard SiteClock(identifier: text) != nil else {
                report(.unknownTimeZone(text, suggestion: Suggestions.closest(to: text, in: TimeZone.knownTimeZoneIdentifiers)), at: here)
                return nil
            }
            return done(.string(text))

        case .choice(let choices):
            guard let text = scalarText(node, expecting: type) else { return nil }
            guard choices.contains(text) else {
                let lowered = text.lowercased()
                let suggestion = choices.contains(lowered) ? lowered : Suggestions.closest(to: text, in: choices)
                report(.notAChoice(text, field: "value", choices: choices, suggestion: suggestion), at: here)
                return nil
            }
            return done(.string(text))

        case .fileName:
            guard let text = scalarText(node, expecting: type) else { return nil }
            if text.hasPrefix("/") || text.hasPrefix("~") || text.split(separator: "/").contains("..") || text == ".." {
                report(.pathOutsideContent(text), at: here)
                return nil
            }
            if text.contains("/") || text.contains("\\") || text.isEmpty || text == "." {
                report(.invalidFileName(text, expected: "the name of a file in the same folder"), at: here)
                return nil
            }
            return done(.string(text))

        case .coordinate:
            guard let object = validate(node, as: .object(Schemas.coordinateFields)),
                  case .object(let o) = object.value else { return nil }
            guard let lat = o.number("lat"), let lon = o.number("lon") else { return nil }
            return done(.coordinate(Coordinate(lat: lat, lon: lon)))

        case .placeOrCoordinate:
            switch node {
            case .mapping: return validate(node, as: .coordinate)
            case .scalar: return validate(node, as: .string)
            default:
                report(.wrongType(expected: type.expectation, found: describe(node)), at: here)
                return nil
            }

        case .openingHours:
            return validateOpeningHours(node)

        case .textMap:
            guard case .mapping(let mapping) = node else {
                report(.wrongType(expected: type.expectation, found: describe(node)), at: here)
                return nil
            }
            var values: [String: ValueNode] = [:]
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let key) = keyNode else {
                    report(.wrongType(expected: "a name", found: describe(keyNode)), at: span(of: keyNode))
                    continue
                }
                if let value = validate(valueNode, as: .string) { values[key.string] = value }
            }
            return done(.object(ObjectValue(fields: values, span: here)))

        case .list(let element):
            guard case .sequence(let sequence) = node else {
                report(.wrongType(expected: type.expectation, found: describe(node)), at: here)
                return nil
            }
            var items: [ValueNode] = []
            for item in sequence where !isNull(item) {
                if let value = validate(item, as: element) { items.append(value) }
            }
            return done(.list(items))

        case .object(let fields):
            guard case .mapping(let mapping) = node else {
                report(.wrongType(expected: type.expectation, found: describe(node)), at: here)
                return nil
            }
            return done(.object(validateObject(mapping, fields: fields, at: here)))
        }
    }

    private mutating func validateObject(_ mapping: Node.Mapping, fields: [Field], at here: Span) -> ObjectValue {
        var values: [String: ValueNode] = [:]
        var seen: Set<String> = []
        for (keyNode, valueNode) in mapping {
            guard case .scalar(let key) = keyNode else {
                report(.wrongType(expected: "a field name", found: describe(keyNode)), at: span(of: keyNode))
                continue
            }
            let name = key.string
            guard let field = fields.first(where: { $0.name == name }) else {
                let given = Set(mapping.compactMap { $0.key.scalar?.string })
                let candidates = fields.map(\.name).filter { !given.contains($0) }
                report(.unknownField(name, suggestion: Suggestions.closest(to: name, in: candidates)), at: span(of: keyNode))
                continue
            }
            seen.insert(name)
            if isNull(valueNode) {
                if field.required { report(.missingField(name), at: span(of: keyNode)) }
                continue
            }
            let before = diagnostics.count
            if let value = validate(valueNode, as: field.type) {
                values[name] = value
            }
            nameFieldInRecentDiagnostics(since: before, field: name)
        }
        for field in fields where field.required && !seen.contains(field.name) {
            report(.missingField(field.name), at: here)
        }
        return ObjectValue(fields: values, span: here)
    }

    /// Range and choice problems are found below the field; give them the field's name.
    private mutating func nameFieldInRecentDiagnostics(since index: Int, field: String) {
        guard index < diagnostics.count else { return }
        for i in index..<diagnostics.count {
            let d = diagnostics[i]
            let renamed: Problem
            switch d.problem {
            case .outOfRange("value", let value, let range): renamed = .outOfRange(field: field, value: value, range: range)
            case .notPositive("value", let value): renamed = .notPositive(field: field, value: value)
            case .notAChoice(let v, "value", let choices, let s): renamed = .notAChoice(v, field: field, choices: choices, suggestion: s)
            default: continue
            }
            diagnostics[i] = Diagnostic(renamed, in: d.file, at: d.span)
        }
    }

    private mutating func validateOpeningHours(_ node: Node) -> ValueNode? {
        let here = span(of: node)
        guard case .mapping(let mapping) = node else {
            report(.wrongType(expected: FieldType.openingHours.expectation, found: describe(node)), at: here)
            return nil
        }
        var days: [[OpeningHours.Range]?] = Array(repeating: nil, count: 7)
        var written: [OpeningHours.Entry] = []
        var valid = true
        for (keyNode, valueNode) in mapping {
            guard case .scalar(let key) = keyNode else { continue }
            let keySpan = span(of: keyNode)
            guard let indexes = OpeningHoursParser.days(key.string) else {
                let names = OpeningHours.dayNames + ["mon-fri", "sat-sun", "mon-sun"]
                report(.invalidDays(key.string, suggestion: Suggestions.closest(to: key.string, in: names)), at: keySpan)
                valid = false
                continue
            }
            guard case .scalar(let value) = valueNode,
                  let ranges = OpeningHoursParser.ranges(value.string) else {
                let text: String
                if case .scalar(let value) = valueNode { text = value.string } else { text = describe(valueNode) }
                report(.invalidOpeningHours(text), at: span(of: valueNode))
                valid = false
                continue
            }
            for index in indexes {
                if days[index] != nil {
                    report(.dayGivenTwice(OpeningHours.dayNames[index]), at: keySpan)
                    valid = false
                }
                days[index] = ranges
            }
            written.append(.init(days: key.string, hours: value.string.trimmingSpaces()))
        }
        guard valid else { return nil }
        return ValueNode(value: .openingHours(OpeningHours(days: days, written: written)), span: here)
    }

    private func rangeText(_ min: Int?, _ max: Int?) -> String {
        switch (min, max) {
        case let (min?, max?): return "\(min) to \(max)"
        case let (min?, nil): return "at least \(min)"
        case let (nil, max?): return "at most \(max)"
        default: return "any"
        }
    }

    private func trim(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
