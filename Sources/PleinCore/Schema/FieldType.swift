import PleinText

/// The shape of one value in front matter or a YAML file.
///
/// The checker validates against these definitions and the JSON Schema for editors is generated
/// from them, so the two cannot drift apart.
public indirect enum FieldType: Sendable {
    /// Any text on one line.
    case string
    /// A record id: lowercase letters, digits and `-`.
    case slug
    /// A member, by id or by e-mail address.
    case memberRef
    case email
    case integer(min: Int? = nil, max: Int? = nil)
    case number(min: Double, max: Double)
    case boolean
    /// A date or a date and time; a date alone is midnight in the site's time zone.
    case moment
    /// An absolute `http` or `https` URL.
    case url
    case timeZone
    case choice([String])
    /// `{lat, lon}` in WGS 84 degrees.
    case coordinate
    /// The name of a file in the same folder.
    case fileName
    /// A place name from `places.yaml` or a coordinate.
    case placeOrCoordinate
    /// A map from days (`mon`, `mon-fri`) to `"HH:MM-HH:MM"` or `closed`.
    case openingHours
    /// A map from names of one's choosing to one-line texts (`labels`).
    case textMap
    case list(FieldType)
    case object([Field])

    /// How the type is named in "expected …" messages.
    public var expectation: String {
        switch self {
        case .string, .slug, .memberRef, .email, .url, .timeZone, .choice, .fileName: return "text"
        case .integer: return "a whole number"
        case .number: return "a number"
        case .boolean: return "true or false"
        case .moment: return "a date (YYYY-MM-DD) or a date and time"
        case .coordinate: return "a coordinate {lat, lon}"
        case .placeOrCoordinate: return "a place name or a coordinate {lat, lon}"
        case .openingHours: return "a map of days to opening hours"
        case .textMap: return "a map of names to texts"
        case .list: return "a list"
        case .object: return "a map of fields"
        }
    }
}

/// One named field of an object.
public struct Field: Sendable {
    public let name: String
    public let type: FieldType
    public let required: Bool
    /// One sentence for authors, shown in documentation and editor tooltips.
    public let summary: String

    public init(_ name: String, _ type: FieldType, required: Bool = false, _ summary: String) {
        self.name = name
        self.type = type
        self.required = required
        self.summary = summary
    }
}

/// The schema of one kind of content file.
public struct RecordSchema: Sendable {
    public enum Format: Sendable { case frontMatter, yaml }
    public let kind: String
    public let format: Format
    /// The top level: an object, or for lists of entries (`places.yaml`) a list.
    public let root: FieldType
    public let summary: String
}
