public import PleinCore

/// Records as read and validated, kept between builds (in the build store) so that a build after
/// an edit parses only the files whose bytes changed: parsing YAML is most of loading.
///
/// A record is kept when its file read without an error; one whose reading warned says so, and is
/// read again from its text when it is used (`ContentLoader`), so a kept record stands for
/// everything reading that file produces. Each carries the SHA-256 of the bytes it was read
/// from; the caller gives back only records whose file still has those bytes, read with the
/// same plein (`context`).
public struct KnownRecords: Sendable {
    /// Content-relative path → (the file's SHA-256, the record's encoding).
    public var records: [String: (hash: [UInt8], encoded: [UInt8])]
    /// What the records were read with: plein's version and the site's time zone.
    public var context: String

    public init(records: [String: (hash: [UInt8], encoded: [UInt8])] = [:], context: String = "") {
        self.records = records
        self.context = context
    }

    /// What records read now are read with, for a site in `clock`'s time zone.
    public static func context(clock: SiteClock) -> String {
        "plein \(PleinVersion.number) records \(RecordCoding.format) zone \(clock.identifier)"
    }
}

/// A compact binary form of `SourceReader.Read`: fields by name, values with their places, the
/// body and the text. Decoding gives back exactly what reading gave.
enum RecordCoding {
    /// Bumped whenever the encoding changes, or what reading makes of the same bytes (2: values
    /// on one line, bodies without bidirectional controls; 3: a body that ends the text is kept
    /// as its length; 4: whether its reading warned).
    static let format = 4

    /// Whether a file read with these problems has its record kept: no error, and nothing that
    /// reading its text again would not find (NUL bytes, which the text no longer holds).
    static func keeps(_ problems: [Diagnostic]) -> Bool {
        !problems.hasErrors && !problems.contains { if case .nulBytes = $0.problem { true } else { false } }
    }

    static func encode(_ read: SourceReader.Read, warned: Bool = false) -> [UInt8] {
        var writer = Writer()
        writer.node(read.root)
        writer.string(read.text)
        // The body is almost always the end of the file's text, as it was: then its length says it
        // (a record was two copies of the body).
        var text = read.text, markdown = read.body.markdown
        let suffix = text.withUTF8 { whole in
            markdown.withUTF8 { body in body.count <= whole.count && whole.suffix(body.count).elementsEqual(body) ? body.count : nil }
        }
        if let suffix {
            writer.int(suffix)
        } else {
            writer.int(-1)
            writer.string(markdown)
        }
        writer.int(read.body.line)
        writer.int(warned ? 1 : 0)
        return writer.bytes
    }

    /// The record, and whether its reading warned.
    static func decode(_ bytes: [UInt8], digest: [UInt8]) -> (read: SourceReader.Read, warned: Bool)? {
        var reader = Reader(bytes: bytes)
        guard let root = reader.node(depth: 0), let text = reader.string(), let length = reader.int() else { return nil }
        let markdown: String
        if length >= 0 {
            let utf8 = text.utf8
            guard length <= utf8.count else { return nil }
            markdown = String(decoding: utf8.suffix(length), as: UTF8.self)
        } else {
            guard let body = reader.string() else { return nil }
            markdown = body
        }
        guard let line = reader.int(), let warned = reader.int(), reader.atEnd else { return nil }
        return (SourceReader.Read(root: root, body: Body(markdown: markdown, line: line), text: text, digest: digest), warned != 0)
    }

    private enum Tag: UInt8 {
        case string, int, number, bool, moment, coordinate, openingHours, list, object
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func uint(_ value: UInt64) {
            var v = value
            while v >= 0x80 {
                bytes.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            bytes.append(UInt8(v))
        }

        /// Zig-zag, so that small negative numbers stay short.
        mutating func int(_ value: Int) { int64(Int64(value)) }
        mutating func int64(_ value: Int64) { uint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

        mutating func double(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func string(_ value: String) {
            var text = value
            text.withUTF8 { utf8 in
                uint(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func span(_ span: Span) {
            int(span.line)
            int(span.column)
            int(span.length)
        }

        mutating func node(_ given: ValueNode) {
            span(given.span)
            switch given.value {
            case .string(let s):
                bytes.append(Tag.string.rawValue)
                string(s)
            case .int(let v):
                bytes.append(Tag.int.rawValue)
                int(v)
            case .number(let v):
                bytes.append(Tag.number.rawValue)
                double(v)
            case .bool(let v):
                bytes.append(Tag.bool.rawValue)
                bytes.append(v ? 1 : 0)
            case .moment(let m):
                bytes.append(Tag.moment.rawValue)
                int64(m.seconds)
                bytes.append(m.isDateOnly ? 1 : 0)
            case .coordinate(let c):
                bytes.append(Tag.coordinate.rawValue)
                double(c.lat)
                double(c.lon)
            case .openingHours(let hours):
                bytes.append(Tag.openingHours.rawValue)
                uint(UInt64(hours.days.count))
                for day in hours.days {
                    guard let ranges = day else {
                        bytes.append(0)
                        continue
                    }
                    bytes.append(1)
                    uint(UInt64(ranges.count))
                    for range in ranges {
                        int(range.start)
                        int(range.end)
                    }
                }
                uint(UInt64(hours.written.count))
                for entry in hours.written {
                    string(entry.days)
                    string(entry.hours)
                }
            case .list(let items):
                bytes.append(Tag.list.rawValue)
                uint(UInt64(items.count))
                for item in items { node(item) }
            case .object(let object):
                bytes.append(Tag.object.rawValue)
                span(object.span)
                uint(UInt64(object.fields.count))
                for name in object.fields.keys.sorted() {
                    string(name)
                    node(object.fields[name]!)
                }
            }
        }
    }

    /// Reads what `Writer` wrote; nil (never a crash) for anything else.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var atEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func uint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let b = byte() {
                guard shift < 64 else { return nil }
                value |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }

        mutating func int64() -> Int64? {
            guard let raw = uint() else { return nil }
            return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        }

        mutating func int() -> Int? { int64().flatMap { Int(exactly: $0) } }

        mutating func count() -> Int? {
            guard let n = uint(), n <= UInt64(bytes.count - offset) else { return nil }
            return Int(n)
        }

        mutating func double() -> Double? {
            guard bytes.count - offset >= 8 else { return nil }
            var raw: UInt64 = 0
            for index in 0..<8 { raw |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
            offset += 8
            return Double(bitPattern: raw)
        }

        mutating func string() -> String? {
            guard let n = count() else { return nil }
            defer { offset += n }
            return String(decoding: bytes[offset..<offset + n], as: UTF8.self)
        }

        mutating func span() -> Span? {
            guard let line = int(), let column = int(), let length = int() else { return nil }
            return Span(line: line, column: column, length: length)
        }

        mutating func node(depth: Int) -> ValueNode? {
            guard depth < 2000, let place = span(), let tag = byte().flatMap(Tag.init(rawValue:)) else { return nil }
            let value: Value
            switch tag {
            case .string:
                guard let s = string() else { return nil }
                value = .string(s)
            case .int:
                guard let v = int() else { return nil }
                value = .int(v)
            case .number:
                guard let v = double() else { return nil }
                value = .number(v)
            case .bool:
                guard let b = byte() else { return nil }
                value = .bool(b != 0)
            case .moment:
                guard let seconds = int64(), let dateOnly = byte() else { return nil }
                value = .moment(Moment(seconds: seconds, isDateOnly: dateOnly != 0))
            case .coordinate:
                guard let lat = double(), let lon = double() else { return nil }
                value = .coordinate(Coordinate(lat: lat, lon: lon))
            case .openingHours:
                guard let dayCount = count() else { return nil }
                var days: [[OpeningHours.Range]?] = []
                for _ in 0..<dayCount {
                    guard let given = byte() else { return nil }
                    if given == 0 {
                        days.append(nil)
                        continue
                    }
                    guard let n = count() else { return nil }
                    var ranges: [OpeningHours.Range] = []
                    for _ in 0..<n {
                        guard let start = int(), let end = int() else { return nil }
                        ranges.append(OpeningHours.Range(start: start, end: end))
                    }
                    days.append(ranges)
                }
                guard let writtenCount = count() else { return nil }
                var written: [OpeningHours.Entry] = []
                for _ in 0..<writtenCount {
                    guard let d = string(), let h = string() else { return nil }
                    written.append(OpeningHours.Entry(days: d, hours: h))
                }
                value = .openingHours(OpeningHours(days: days, written: written))
            case .list:
                guard let n = count() else { return nil }
                var items: [ValueNode] = []
                items.reserveCapacity(n)
                for _ in 0..<n {
                    guard let item = node(depth: depth + 1) else { return nil }
                    items.append(item)
                }
                value = .list(items)
            case .object:
                guard let objectSpan = span(), let n = count() else { return nil }
                var fields: [String: ValueNode] = [:]
                fields.reserveCapacity(n)
                for _ in 0..<n {
                    guard let name = string(), let field = node(depth: depth + 1) else { return nil }
                    fields[name] = field
                }
                value = .object(ObjectValue(fields: fields, span: objectSpan))
            }
            return ValueNode(value: value, span: place)
        }
    }
}
