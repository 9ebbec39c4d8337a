/// Who the members are, for resolving references: their ids, and their e-mail addresses
/// (compared ignoring case). It holds nothing else of them, so that a build after an edit of
/// reports checks them against the members without reading every member's record.
public struct MemberIndex: Sendable, Codable, Equatable {
    public let ids: Set<String>
    /// `Email.key` of an address → the member's id and the address as written.
    public let byEmail: [String: Address]

    public struct Address: Sendable, Codable, Equatable {
        public let id: String
        public let email: String
    }

    public init(_ members: [Member]) {
        self.init(members.map { ($0.id, $0.email) })
    }

    /// From each member's id and address ("" for none), in the members' order: the first
    /// member of an address is the one it names.
    public init(_ members: [(id: String, email: String)]) {
        var ids: Set<String> = []
        var byEmail: [String: Address] = [:]
        for (id, email) in members {
            ids.insert(id)
            let key = Email.key(email)
            if !key.isEmpty, byEmail[key] == nil { byEmail[key] = Address(id: id, email: email) }
        }
        self.ids = ids
        self.byEmail = byEmail
    }

    /// The id of the member a reference (an id or an address) names, if any.
    public func resolve(_ reference: String) -> String? {
        if reference.contains("@") { return byEmail[Email.key(reference)]?.id }
        return ids.contains(reference) ? reference : nil
    }

    /// The closest id (or address, for an address) to an unknown reference.
    public func suggestion(for reference: String, among ids: [String]? = nil) -> String? {
        if reference.contains("@") {
            return Suggestions.closest(to: reference, in: byEmail.values.map(\.email))
        }
        return Suggestions.closest(to: reference, in: ids ?? Array(self.ids))
    }

    /// The index as a build keeps it: each member's id and the address it is known by ("" for
    /// none, or one an earlier member has), each ended by a NUL, in id order. Two thousand
    /// members decode in a fraction of what their `Codable` form takes.
    public var packed: [UInt8] {
        var addressOf: [String: String] = [:]
        for address in byEmail.values { addressOf[address.id] = address.email }
        var bytes: [UInt8] = []
        for id in ids.sorted() {
            bytes += id.utf8
            bytes.append(0)
            bytes += (addressOf[id] ?? "").utf8
            bytes.append(0)
        }
        return bytes
    }

    /// An index as `packed` keeps it; nil for bytes it does not make.
    public init?(packed bytes: [UInt8]) {
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: false)
        // (Pairs, and the empty piece after the last NUL.)
        guard parts.count % 2 == 1, parts.last?.isEmpty == true else { return nil }
        var members: [(id: String, email: String)] = []
        members.reserveCapacity(parts.count / 2)
        for index in stride(from: 0, to: parts.count - 1, by: 2) {
            members.append((String(decoding: parts[index], as: UTF8.self), String(decoding: parts[index + 1], as: UTF8.self)))
        }
        self.init(members)
    }
}
