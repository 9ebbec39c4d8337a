/// A validated value with its place in the file.
public struct ValueNode: Sendable {
    public let value: Value
    public let span: Span
    public init(value: Value, span: Span) {
        self.value = value
        self.span = span
    }
}

extension Located: Codable where T: Codable {}

/// What a validated field holds. Produced only by `Validator`, so its contents always match
/// the field's declared `FieldType`.
public enum Value: Sendable {
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)
    case moment(Moment)
    case coordinate(Coordinate)
    case openingHours(OpeningHours)
    case list([ValueNode])
    case object(ObjectValue)
}

/// The fields of a validated object, by name.
public struct ObjectValue: Sendable {
    public let fields: [String: ValueNode]
    /// Where the object starts (for problems of the whole object).
    public let span: Span

    public init(fields: [String: ValueNode], span: Span) {
        self.fields = fields
        self.span = span
    }

    public static let empty = ObjectValue(fields: [:], span: .fileStart)

    public func span(_ name: String) -> Span? { fields[name]?.span }

    public func string(_ name: String) -> String? {
        if case .string(let s)? = fields[name]?.value { return s }
        return nil
    }
    public func int(_ name: String) -> Int? {
        if case .int(let v)? = fields[name]?.value { return v }
        return nil
    }
    public func number(_ name: String) -> Double? {
        switch fields[name]?.value {
        case .number(let v)?: return v
        case .int(let v)?: return Double(v)
        default: return nil
        }
    }
    public func bool(_ name: String) -> Bool? {
        if case .bool(let v)? = fields[name]?.value { return v }
        return nil
    }
    public func moment(_ name: String) -> Moment? {
        if case .moment(let v)? = fields[name]?.value { return v }
        return nil
    }
    public func coordinate(_ name: String) -> Coordinate? {
        if case .coordinate(let v)? = fields[name]?.value { return v }
        return nil
    }
    public func openingHours(_ name: String) -> OpeningHours? {
        if case .openingHours(let v)? = fields[name]?.value { return v }
        return nil
    }
    public func object(_ name: String) -> ObjectValue? {
        if case .object(let v)? = fields[name]?.value { return v }
        return nil
    }
    public func list(_ name: String) -> [ValueNode] {
        if case .list(let v)? = fields[name]?.value { return v }
        return []
    }
    /// A list of strings with each element's place.
    public func strings(_ name: String) -> [Located<String>] {
        list(name).compactMap { node in
            if case .string(let s) = node.value { return Located(s, node.span) }
            return nil
        }
    }
    public func objects(_ name: String) -> [ObjectValue] {
        list(name).compactMap { node in
            if case .object(let o) = node.value { return o }
            return nil
        }
    }
}

/// A value and where it was written.
public struct Located<T: Sendable & Hashable>: Sendable, Hashable {
    public let value: T
    public let span: Span
    public init(_ value: T, _ span: Span) {
        self.value = value
        self.span = span
    }
}
