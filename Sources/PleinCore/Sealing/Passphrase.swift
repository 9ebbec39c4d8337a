/// Passphrases of members-only groups: whether one is strong enough, and new strong ones.
public enum Passphrase {
    /// The fewest characters a passphrase may have.
    public static let minimumLength = 16

    /// Why `passphrase` is too weak to protect a group, or nil when it is not. `avoiding`: words
    /// an attacker would try first (the group's id and name, the site's title). The reason says
    /// nothing of the passphrase itself (not its length, nor the word it holds): it is printed in
    /// build logs, which CI may publish.
    public static func weakness(_ passphrase: String, avoiding: [String]) -> String? {
        let characters = Array(passphrase)
        if characters.count < minimumLength {
            return "it is shorter than \(minimumLength) characters"
        }
        if Set(characters.map { $0.lowercased() }).count < 8 {
            return "it has fewer than 8 different characters"
        }
        let lower = passphrase.lowercased()
        if avoiding.contains(where: { $0.count >= 4 && lower.contains($0.lowercased()) }) {
            return "it contains the group's id or name or the site's title, which anyone who sees the site can guess"
        }
        if ["password", "wachtwoord", "passwort", "123456", "qwerty", "azerty", "letmein", "welkom", "welcome"].contains(where: lower.contains) {
            return "it contains a word that attackers try first"
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
