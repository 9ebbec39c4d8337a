import PleinCore
import PleinModel
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

    mutating func int(_ value: Int?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { int(Int64(value)) }
    }

    mutating func strings(_ values: [String]) {
        int(Int64(values.count))
        for value in values { string(value) }
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
        let value = bytes.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Int64.self)) }
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

    /// An optional integer: nil when the bytes end; `.some(nil)` for none.
    mutating func optionalInt() -> Int?? {
        guard offset < bytes.count else { return nil }
        offset += 1
        guard bytes[offset - 1] == 1 else { return .some(nil) }
        return int().map { .some(Int($0)) }
    }

    /// A count of things of at least one byte each, that the bytes left can hold.
    mutating func count() -> Int? {
        guard let count = int(), count >= 0, count <= Int64(bytes.count - offset) else { return nil }
        return Int(count)
    }

    mutating func strings() -> [String]? {
        guard let count = count() else { return nil }
        var values: [String] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let value = string() else { return nil }
            values.append(value)
        }
        return values
    }

    /// Pairs of strings, made into values.
    mutating func pairs<Value>(_ make: (String, String) -> Value) -> [Value]? {
        guard let count = count() else { return nil }
        var values: [Value] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let first = string(), let second = string() else { return nil }
            values.append(make(first, second))
        }
        return values
    }

    mutating func coordinate() -> Coordinate?? {
        guard offset < bytes.count else { return nil }
        offset += 1
        guard bytes[offset - 1] == 1 else { return .some(nil) }
        guard let lat = int(), let lon = int() else { return nil }
        return .some(Coordinate(lat: Double(bitPattern: UInt64(bitPattern: lat)), lon: Double(bitPattern: UInt64(bitPattern: lon))))
    }
}

/// A list of ids (the order of every report is a hundred thousand of them at 100,000 reports,
/// written again with each new report).
extension Array: CompactValue where Element == String {
    static var mark: UInt8 { 0xF6 }

    func write(to bytes: inout CompactWriter) {
        bytes.bytes.reserveCapacity(bytes.bytes.count + 8 + reduce(0) { $0 + 8 + $1.utf8.count })
        bytes.strings(self)
    }

    init?(from bytes: inout CompactReader) {
        guard let values = bytes.strings() else { return nil }
        self = values
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

extension MemberModel: CompactValue {
    static var mark: UInt8 { 0xF5 }

    func write(to bytes: inout CompactWriter) {
        bytes.string(id)
        bytes.string(file)
        bytes.moment(revision?.created)
        bytes.moment(revision?.changed)
        bytes.string(name)
        bytes.string(avatar)
        bytes.moment(joined)
        bytes.coordinate(home)
        bytes.string(nearPlace)
        bytes.string(postcode)
        bytes.bytes.append(diving == nil ? 0 : 1)
        if let diving {
            bytes.string(diving.certification)
            bytes.int(diving.years)
            bytes.int(diving.dives)
        }
        bytes.string(bio.markdown)
        bytes.int(Int64(bio.line))
        for list in [friends, groups, reports, follows] { bytes.strings(list) }
        bytes.int(Int64(replies.count))
        for reply in replies {
            bytes.string(reply.report)
            bytes.int(Int64(reply.index))
        }
        bytes.int(Int64(albums.count))
        for album in albums {
            bytes.string(album.group)
            bytes.string(album.album)
        }
        bytes.int(Int64(completedGoals.count))
        for goal in completedGoals {
            bytes.string(goal.group)
            bytes.string(goal.goal)
        }
        bytes.moment(left)
    }

    init?(from bytes: inout CompactReader) {
        guard let id = bytes.string(), let file = bytes.string(), let created = bytes.optionalMoment(), let changed = bytes.optionalMoment(),
              (created == nil) == (changed == nil), let name = bytes.string(), let avatar = bytes.optionalString(),
              let joined = bytes.optionalMoment(), let home = bytes.coordinate(), let nearPlace = bytes.optionalString(),
              let postcode = bytes.optionalString(), bytes.offset < bytes.bytes.count else { return nil }
        bytes.offset += 1
        var diving: Member.Diving?
        if bytes.bytes[bytes.offset - 1] == 1 {
            guard let certification = bytes.optionalString(), let years = bytes.optionalInt(), let dives = bytes.optionalInt() else { return nil }
            diving = Member.Diving(certification: certification, years: years, dives: dives)
        }
        guard let markdown = bytes.string(), let line = bytes.int(), let friends = bytes.strings(), let groups = bytes.strings(),
              let reports = bytes.strings(), let follows = bytes.strings(), let count = bytes.count() else { return nil }
        var replies: [ReplyRef] = []
        replies.reserveCapacity(count)
        for _ in 0..<count {
            guard let report = bytes.string(), let index = bytes.int() else { return nil }
            replies.append(ReplyRef(report: report, index: Int(index)))
        }
        guard let albums = bytes.pairs(AlbumKey.init(group:album:)), let completedGoals = bytes.pairs(GoalKey.init(group:goal:)),
              let left = bytes.optionalMoment() else { return nil }
        self.init(stored: id, file: file, revision: created.map { Revision(created: $0, changed: changed!) }, name: name, avatar: avatar,
                  joined: joined, home: home, nearPlace: nearPlace, postcode: postcode, diving: diving, bio: Body(markdown: markdown, line: Int(line)),
                  friends: friends, groups: groups, reports: reports, follows: follows, replies: replies, albums: albums,
                  completedGoals: completedGoals, left: left)
    }
}
