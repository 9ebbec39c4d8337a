import PleinCore
import PleinRender

/// A value the build store keeps in a compact form of its own rather than `ValueCoding`'s: the
/// small views a build after an edit reads for every report or member at once (the site's feed
/// reads ten thousand reports' times and replies), where decoding through `Decodable` costs
/// more than the rest of the page. The first byte tells the form apart from `ValueCoding`'s,
/// whose tags are below `0xF0`.
protocol CompactValue {
    static var mark: UInt8 { get }
    func write(to bytes: inout CompactWriter)
    init?(from bytes: inout CompactReader)
}

extension CompactValue {
    var compact: [UInt8] {
        var writer = CompactWriter(bytes: [Self.mark])
        write(to: &writer)
        return writer.bytes
    }

    init?(compact bytes: [UInt8]) {
        guard bytes.first == Self.mark else { return nil }
        var reader = CompactReader(bytes: bytes, offset: 1)
        guard let value = Self(from: &reader), reader.offset == bytes.count else { return nil }
        self = value
    }
}

struct CompactWriter {
    var bytes: [UInt8]

    mutating func int(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A moment as `Moment`'s own encoding: the seconds doubled, plus one for a date alone.
    mutating func moment(_ value: Moment) {
        int(value.seconds << 1 | (value.isDateOnly ? 1 : 0))
    }

    mutating func moment(_ value: Moment?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { moment(value) }
    }

    mutating func string(_ value: String) {
        int(Int64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func string(_ value: String?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { string(value) }
    }

    mutating func coordinate(_ value: Coordinate?) {
        bytes.append(value == nil ? 0 : 1)
        if let value {
            int(Int64(bitPattern: value.lat.bitPattern))
            int(Int64(bitPattern: value.lon.bitPattern))
        }
    }
}

struct CompactReader {
    let bytes: [UInt8]
    var offset: Int

    mutating func int() -> Int64? {
        guard offset + 8 <= bytes.count else { return nil }
        var value: Int64 = 0
        for index in (0..<8).reversed() { value = value << 8 | Int64(bytes[offset + index]) }
        offset += 8
        return value
    }

    mutating func moment() -> Moment? {
        int().map { Moment(seconds: $0 >> 1, isDateOnly: $0 & 1 == 1) }
    }

    /// An optional moment: nil when the bytes end; `.some(nil)` for none.
    mutating func optionalMoment() -> Moment?? {
        guard offset < bytes.count else { return nil }
        offset += 1
        guard bytes[offset - 1] == 1 else { return .some(nil) }
        return moment().map { .some($0) }
    }

    mutating func string() -> String? {
        guard let count = int(), count >= 0, count <= Int64(bytes.count - offset) else { return nil }
        defer { offset += Int(count) }
        return String(decoding: bytes[offset..<offset + Int(count)], as: UTF8.self)
    }

    /// An optional string: nil when the bytes end; `.some(nil)` for none.
    mutating func optionalString() -> String?? {
        guard offset < bytes.count else { return nil }
        offset += 1
        guard bytes[offset - 1] == 1 else { return .some(nil) }
        return string().map { .some($0) }
    }

    mutating func coordinate() -> Coordinate?? {
        guard offset < bytes.count else { return nil }
        offset += 1
        guard bytes[offset - 1] == 1 else { return .some(nil) }
        guard let lat = int(), let lon = int() else { return nil }
        return .some(Coordinate(lat: Double(bitPattern: UInt64(bitPattern: lat)), lon: Double(bitPattern: UInt64(bitPattern: lon))))
    }
}

extension ReportHeadline: CompactValue {
    static var mark: UInt8 { 0xF4 }

    func write(to bytes: inout CompactWriter) {
        for text in [id, area, file, title, category.rawValue, author] { bytes.string(text) }
        bytes.moment(at)
        bytes.coordinate(location)
        bytes.moment(starts)
        bytes.moment(ends)
        bytes.string(place)
        bytes.moment(changed)
    }

    init?(from bytes: inout CompactReader) {
        guard let id = bytes.string(), let area = bytes.string(), let file = bytes.string(), let title = bytes.string(),
              let category = bytes.string().flatMap(Category.init(rawValue:)), let author = bytes.string(), let at = bytes.moment(),
              let location = bytes.coordinate(), let starts = bytes.optionalMoment(), let ends = bytes.optionalMoment(),
              let place = bytes.optionalString(), let changed = bytes.optionalMoment() else { return nil }
        self.init(id: id, area: area, file: file, title: title, category: category, at: at, author: author, location: location,
                  starts: starts, ends: ends, place: place, changed: changed)
    }
}

extension ReportTimes: CompactValue {
    static var mark: UInt8 { 0xF1 }

    func write(to bytes: inout CompactWriter) {
        bytes.moment(at)
        bytes.moment(starts)
    }

    init?(from bytes: inout CompactReader) {
        guard let at = bytes.moment(), let starts = bytes.optionalMoment() else { return nil }
        self.init(at: at, starts: starts)
    }
}

extension ReportReplies: CompactValue {
    static var mark: UInt8 { 0xF2 }

    func write(to bytes: inout CompactWriter) {
        bytes.int(Int64(replies.count))
        for reply in replies {
            bytes.moment(reply.at)
            bytes.string(reply.name)
        }
    }

    init?(from bytes: inout CompactReader) {
        guard let count = bytes.int(), count >= 0, count <= Int64(bytes.bytes.count) else { return nil }
        var replies: [Reply] = []
        replies.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let at = bytes.moment(), let name = bytes.string() else { return nil }
            replies.append(Reply(name: name, at: at))
        }
        self.init(replies: replies)
    }
}

extension Facts.At: CompactValue {
    static var mark: UInt8 { 0xF3 }

    func write(to bytes: inout CompactWriter) {
        bytes.moment(at)
    }

    init?(from bytes: inout CompactReader) {
        guard let at = bytes.optionalMoment() else { return nil }
        self.init(at: at)
    }
}
