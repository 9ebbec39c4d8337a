/// Passphrases of members-only groups: whether one is strong enough, and new strong ones.
public enum Passphrase {
    /// The fewest characters a passphrase may have.
    public static let minimumLength = 16

    /// Why `passphrase` is too weak to protect a group, or nil when it is not. `avoiding`: words
    /// an attacker would try first (the group's id and name, the site's title).
    public static func weakness(_ passphrase: String, avoiding: [String]) -> String? {
        let characters = Array(passphrase)
        if characters.count < minimumLength {
            return "it has \(characters.count) character\(characters.count == 1 ? "" : "s"), and a passphrase needs at least \(minimumLength)"
        }
        if Set(characters.map { $0.lowercased() }).count < 8 {
            return "it repeats a few characters (fewer than 8 different ones)"
        }
        let lower = passphrase.lowercased()
        for word in avoiding where word.count >= 4 && lower.contains(word.lowercased()) {
            return "it contains \"\(word)\", which anyone who sees the site can guess"
        }
        for word in ["password", "wachtwoord", "passwort", "123456", "qwerty", "azerty", "letmein", "welkom", "welcome"] where lower.contains(word) {
            return "it contains \"\(word)\", one of the first things an attacker tries"
        }
        return nil
    }

    /// A new passphrase of 125 random bits: five groups of five lowercase letters and digits,
    /// without the ones that are easily mistaken for each other (0, 1, l, o).
    public static func generate() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        var random = SystemRandomNumberGenerator()
        return (0..<5).map { _ in String((0..<5).map { _ in alphabet[Int(random.next(upperBound: UInt32(alphabet.count)))] }) }
            .joined(separator: "-")
    }
}
