import _CryptoExtras
import Crypto
import Foundation
public import PleinCore

/// The keys of the members-only groups (`visibility: members`): each group's passphrase, from
/// the build's options (never from the content), made into its key with PBKDF2-HMAC-SHA256
/// (swift-crypto). A key is derived once per process for a group, salt and passphrase, since
/// PBKDF2 is slow on purpose.
public struct SealingStage: Sendable {
    private var derived: [String: (salt: [UInt8], passphrase: String, group: SealedGroup)] = [:]

    /// The environment variable that holds a group's passphrase: `PLEIN_PASSPHRASE_` and the id
    /// in capitals, other characters than letters and digits as `_`.
    static func variable(_ group: String) -> String {
        "PLEIN_PASSPHRASE_" + String(group.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// The keys of the content's members-only groups that have a strong passphrase, and the
    /// problems of the others (a weak passphrase is an error; a missing one a warning, and the
    /// group is not published).
    mutating func run(_ content: Content, passphrases: [String: String]) -> (Sealing, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var wanted: [(id: String, salt: [UInt8], passphrase: String)] = []
        for group in content.groups where group.visibility == .members {
            let span = group.spans["visibility"] ?? .fileStart
            guard let given = passphrases[group.id] ?? passphrases[Self.variable(group.id)] else {
                diagnostics.append(Diagnostic(.noPassphrase(group: group.id, variable: Self.variable(group.id)), in: group.file, at: span))
                continue
            }
            let passphrase = Self.normalized(given)
            if let reason = Passphrase.weakness(passphrase, avoiding: [group.id, group.name, content.site.title]) {
                diagnostics.append(Diagnostic(.weakPassphrase(group: group.id, reason: reason), in: group.file, at: span))
                continue
            }
            wanted.append((group.id, SealedGroup.salt(baseURL: content.site.baseURL, group: group.id), passphrase))
        }
        let missing = wanted.filter { want in derived[want.id].map { $0.salt != want.salt || $0.passphrase != want.passphrase } ?? true }
        for (id, group) in parallelMap(missing, { want in (want.id, Self.derive(id: want.id, passphrase: want.passphrase, salt: want.salt)) }) {
            derived[id] = (group.salt, wanted.first { $0.id == id }!.passphrase, group)
        }
        let ids = Set(wanted.map(\.id))
        derived = derived.filter { ids.contains($0.key) }
        return (derived.mapValues(\.group), diagnostics)
    }

    /// `plein check`: the passphrases given for members-only groups held to the rule a build
    /// holds them to (a weak one is an error at the group); groups given none are not said.
    public static func weakPassphrases(_ content: Content, passphrases: [String: String]) -> [Diagnostic] {
        content.groups.filter { $0.visibility == .members }.compactMap { group in
            guard let given = passphrases[group.id] ?? passphrases[variable(group.id)],
                  let reason = Passphrase.weakness(normalized(given), avoiding: [group.id, group.name, content.site.title]) else { return nil }
            return Diagnostic(.weakPassphrase(group: group.id, reason: reason), in: group.file, at: group.spans["visibility"] ?? .fileStart)
        }
    }

    /// A passphrase as it is used: in Unicode NFC, without spaces around it (as `unlock.js` takes
    /// what a member types).
    static func normalized(_ passphrase: String) -> String {
        passphrase.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The group's key: PBKDF2-HMAC-SHA256 of the passphrase's UTF-8 bytes, 32 bytes.
    static func derive(id: String, passphrase: String, salt: [UInt8], iterations: Int = SealedGroup.iterations) -> SealedGroup {
        let key = try! KDF.Insecure.PBKDF2.deriveKey(
            from: Array(passphrase.utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: iterations)
        return SealedGroup(id: id, salt: salt, iterations: iterations, key: key.withUnsafeBytes { Array($0) })
    }

    /// What tells one set of passphrases from another in the build store's fingerprint, without
    /// a fast hash of any of them: PBKDF2 with a salt of its own.
    static func fingerprint(_ passphrases: [String: String]) -> String {
        passphrases.keys.sorted().map { id in
            let key = try! KDF.Insecure.PBKDF2.deriveKey(
                from: Array(passphrases[id]!.utf8), salt: Array("plein build store v1\0\(id)".utf8), using: .sha256, outputByteCount: 16,
                unsafeUncheckedRounds: SealedGroup.iterations)
            return id + " " + key.withUnsafeBytes { Hashing.sha256Hex(Array($0)) }
        }.joined(separator: ",")
    }
}
