public import PleinText

/// JSON Schemas (draft 2020-12) for every kind of content file, generated from the same
/// definitions the checker uses, so an editor's hints and `plein check` cannot disagree.
public enum JSONSchemaWriter {
    public static func schema(_ record: RecordSchema) -> JSON {
        var fields: [(String, JSON)] = [
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("https://plein.invalid/schemas/\(record.kind).json")),
            ("title", .string(record.summary)),
        ]
        if case .object(let members) = schema(record.root) { fields += members }
        return .object(fields)
    }

    static func schema(_ type: FieldType) -> JSON {
        switch type {
        case .string:
            return .object([("type", .string("string"))])
        case .slug:
            return .object([("type", .string("string")), ("pattern", .string("^[a-z0-9]+(-[a-z0-9]+)*$"))])
        case .memberRef:
            return .object([
                ("type", .string("string")),
                ("pattern", .string("^([a-z0-9]+(-[a-z0-9]+)*|[^@\\s]+@[^@\\s]+\\.[^@\\s]+)$")),
                ("description", .string("A member's id, or their e-mail address.")),
            ])
        case .email:
            return .object([("type", .string("string")), ("format", .string("email")), ("pattern", .string("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"))])
        case .integer(let min, let max):
            var f: [(String, JSON)] = [("type", .string("integer"))]
            if let min { f.append(("minimum", .int(min))) }
            if let max { f.append(("maximum", .int(max))) }
            return .object(f)
        case .number(let min, let max):
            return .object([("type", .string("number")), ("minimum", .number(min)), ("maximum", .number(max))])
        case .boolean:
            return .object([("type", .string("boolean"))])
        case .moment:
            return .object([
                ("type", .string("string")),
                ("pattern", .string("^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)? ?(Z|[+-]\\d{2}(:?\\d{2})?)?)?$")),
                ("description", .string("YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SS+HH:MM")),
            ])
        case .url:
            return .object([("type", .string("string")), ("format", .string("uri")), ("pattern", .string("^https?://"))])
        case .timeZone:
            return .object([("type", .string("string")), ("description", .string("An IANA time zone, e.g. Europe/Amsterdam."))])
        case .choice(let choices):
            return .object([("type", .string("string")), ("enum", .array(choices.map { .string($0) }))])
        case .coordinate:
            return object(Schemas.coordinateFields)
        case .fileName:
            return .object([("type", .string("string")), ("pattern", .string("^[^/\\\\]+$"))])
        case .placeOrCoordinate:
            return .object([("oneOf", .array([schema(.string), schema(.coordinate)]))])
        case .openingHours:
            let day = "(mon|tue|wed|thu|fri|sat|sun)"
            return .object([
                ("type", .string("object")),
                ("patternProperties", .object([
                    ("^\(day)(-\(day))?$", .object([
                        ("type", .string("string")),
                        ("pattern", .string("^(closed|\\d{1,2}:\\d{2}-\\d{1,2}:\\d{2}(, *\\d{1,2}:\\d{2}-\\d{1,2}:\\d{2})*)$")),
                    ])),
                ])),
                ("additionalProperties", .bool(false)),
            ])
        case .textMap:
            return .object([("type", .string("object")), ("additionalProperties", .object([("type", .string("string"))]))])
        case .list(let element):
            return .object([("type", .string("array")), ("items", schema(element))])
        case .object(let fields):
            return object(fields)
        }
    }

    static func object(_ fields: [Field]) -> JSON {
        var properties: [(String, JSON)] = []
        for field in fields {
            var s = schema(field.type)
            if case .object(var members) = s {
                members.append(("description", .string(field.summary)))
                s = .object(members)
            }
            properties.append((field.name, s))
        }
        var result: [(String, JSON)] = [("type", .string("object")), ("properties", .object(properties))]
        let required = fields.filter(\.required).map(\.name)
        if !required.isEmpty { result.append(("required", .array(required.map { .string($0) }))) }
        result.append(("additionalProperties", .bool(false)))
        return .object(result)
    }

    /// Which files each schema is for, as globs relative to the content folder.
    public static var globs: [String: [String]] { ContentLayout.globs }
}
