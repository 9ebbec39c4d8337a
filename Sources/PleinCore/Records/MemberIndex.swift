/// Finds members by id or by e-mail address (compared ignoring case).
public struct MemberIndex: Sendable {
    public let byID: [String: Member]
    public let byEmail: [String: Member]

    public init(_ members: [Member]) {
        var byID: [String: Member] = [:]
        var byEmail: [String: Member] = [:]
        for member in members {
            byID[member.id] = member
            let key = Email.key(member.email)
            if !key.isEmpty, byEmail[key] == nil { byEmail[key] = member }
        }
        self.byID = byID
        self.byEmail = byEmail
    }

    /// The member a reference names, if any.
    public func resolve(_ reference: String) -> Member? {
        reference.contains("@") ? byEmail[Email.key(reference)] : byID[reference]
    }

    /// The closest id (or address, for an address) to an unknown reference.
    public func suggestion(for reference: String, among ids: [String]? = nil) -> String? {
        if reference.contains("@") {
            return Suggestions.closest(to: reference, in: byEmail.values.map(\.email))
        }
        return Suggestions.closest(to: reference, in: ids ?? Array(byID.keys))
    }
}
