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
        // Look-alike characters undone (p@ssw0rd is password), and only letters and digits
        // (correct-horse battery_staple is correcthorsebatterystaple).
        let bare = lower.filter { $0.isLetter || $0.isNumber }
        let plain = String(lower.map { lookAlikes[$0] ?? $0 }.filter { $0.isLetter || $0.isNumber })
        if commonWords.contains(where: { plain.contains($0) || bare.contains($0) }) {
            return "it contains a word that attackers try first (also when written with look-alike characters)"
        }
        if famous.contains(where: { plain.contains($0) || bare.contains($0) }) {
            return "it is a well-known passphrase, which attackers try first"
        }
        let folded = Array(lower.prefix(256))
        if characters.count - longestRepeat(folded) < minimumLength {
            return "it repeats a part of itself: without the repeat it is shorter than \(minimumLength) characters"
        }
        if characters.count - max(0, longestRun(folded) - 2) < minimumLength {
            return "it holds a run of characters in order (such as abcdef, 123456 or a row of the keyboard): without it, it is shorter than \(minimumLength) characters"
        }
        return nil
    }

    /// Why the thread secret is too weak, or nil: held to the standard of passphrases (an
    /// attacker who guesses it finds every thread's address and key offline, at HMAC speed).
    public static func secretWeakness(_ secret: [UInt8], siteTitle: String) -> String? {
        weakness(String(decoding: secret, as: UTF8.self), avoiding: [siteTitle])
    }

    /// The first thread's file, where a weak secret is said; nil when the site has no threads.
    public static func secretProblem(_ secret: [UInt8]?, content: Content) -> Diagnostic? {
        guard let secret, let thread = content.threads.map(\.file).min(),
              let reason = secretWeakness(secret, siteTitle: content.site.title) else { return nil }
        return Diagnostic(.weakSecret(reason: reason), in: thread)
    }

    /// Characters written for the letters they look like.
    static let lookAlikes: [Character: Character] = ["@": "a", "4": "a", "8": "b", "3": "e", "6": "g", "1": "i", "!": "i", "0": "o", "$": "s", "5": "s", "7": "t"]

    /// Words attackers try first, in the languages of plein's sites.
    static let commonWords = ["password", "passwort", "wachtwoord", "motdepasse", "contrasena", "contrasenya", "haslo", "parola", "senha",
                              "123456", "qwerty", "azerty", "qwertz", "letmein", "welkom", "welcome", "willkommen", "bienvenue",
                              "iloveyou", "trustno", "abc123"]

    /// Passphrases quoted everywhere, letters only.
    static let famous = ["correcthorsebatterystaple", "thequickbrownfox", "loremipsum", "hunter", "opensesame", "maytheforcebewithyou",
                         "tobeornottobe", "allyourbase", "iamyourfather", "helloworld", "onetwothreefour"]

    /// The length of the longest part (6 characters or more) that appears twice, apart.
    static func longestRepeat(_ text: [Character]) -> Int {
        guard text.count >= 12 else { return 0 }
        for length in stride(from: text.count / 2, through: 6, by: -1) {
            var seen: [ArraySlice<Character>: Int] = [:]
            for start in 0...(text.count - length) {
                let part = text[start..<(start + length)]
                if let first = seen[part], first + length <= start { return length }
                if seen[part] == nil { seen[part] = start }
            }
        }
        return 0
    }

    /// The length of the longest run of characters each next to the one before: in the alphabet,
    /// the digits (either way), or along a row of a QWERTY or AZERTY keyboard.
    static func longestRun(_ text: [Character]) -> Int {
        let rows = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm", "azertyuiop", "qsdfghjklm", "wxcvbn"].map(Array.init)
        func next(_ a: Character, _ b: Character) -> Bool {
            if let x = a.unicodeScalars.first?.value, let y = b.unicodeScalars.first?.value, a.isLetter || a.isNumber, x + 1 == y || y + 1 == x {
                return true
            }
            return rows.contains { row in
                guard let i = row.firstIndex(of: a) else { return false }
                return (i + 1 < row.count && row[i + 1] == b) || (i > 0 && row[i - 1] == b)
            }
        }
        var best = text.isEmpty ? 0 : 1, run = 1
        for index in text.indices.dropFirst() {
            run = next(text[index - 1], text[index]) ? run + 1 : 1
            best = max(best, run)
        }
        return best
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
