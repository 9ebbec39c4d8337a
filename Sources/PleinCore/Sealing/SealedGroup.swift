import Crypto
import Foundation

/// A members-only group's key and what it does: the opaque names of the group's outputs and the
/// sealing of each output (AES-256-GCM under a key of its own). `docs/encryption.md` is the
/// format, step by step; this type and `templates/assets/unlock.js` are its two halves, and
/// `Tests/Output/sealed_check.py` a third, independent one (Python's `cryptography`).
///
/// - The group key is PBKDF2-HMAC-SHA256 of the passphrase (made by `SealedGroup.derive`, in
///   PleinBuild, which has swift-crypto's PBKDF2), with `salt(baseURL:group:)`.
/// - An output's id is HMAC-SHA256 under a key derived from the group key, of its path and its
///   bytes: nobody without the key can compute it or check a guess of the plaintext against it.
/// - An output's key is HKDF-SHA256 of the group key, with the id as salt and the path in the
///   info: a key never seals two different plaintexts, so its nonce can be fixed (zero), and the
///   same bytes at the same path give the same envelope in every build.
public struct SealedGroup: Sendable {
    /// The group's id (its folder), which names its entry page.
    public let id: String
    /// PBKDF2's salt for this group on this site.
    public let salt: [UInt8]
    public let iterations: Int
    /// The group key, and the keys derived from it for names and ids (bytes: swift-crypto's
    /// `SymmetricKey` is not `Sendable`).
    private let key: [UInt8]
    private let namesKey: [UInt8]
    private let idKey: [UInt8]

    /// The first bytes of every sealed output.
    public static let magic: [UInt8] = Array("plnseal1".utf8)
    /// OWASP's figure for PBKDF2-HMAC-SHA256 (Password Storage Cheat Sheet, 2023).
    public static let iterations = 600_000

    /// A group whose key was derived from its passphrase (`key`: 32 bytes).
    public init(id: String, salt: [UInt8], iterations: Int, key: [UInt8]) {
        self.id = id
        self.salt = salt
        self.iterations = iterations
        self.key = key
        namesKey = Self.expand(key, salt: [], info: Array("plein sealed names v1".utf8)).withUnsafeBytes { Array($0) }
        idKey = Self.expand(key, salt: [], info: Array("plein sealed id v1".utf8)).withUnsafeBytes { Array($0) }
    }

    /// PBKDF2's salt: the first 16 bytes of SHA-256 over a label, the site's base URL and the
    /// group's id, so that the same passphrase gives another key on another site or group.
    public static func salt(baseURL: String, group: String) -> [UInt8] {
        Array(Hashing.sha256(Array("plein sealed group v1".utf8) + [0] + Array(baseURL.utf8) + [0] + Array(group.utf8)).prefix(16))
    }

    /// The opaque name that stands for `path` (a page's or a photo's path as it would be in the
    /// open): 32 hex digits of HMAC-SHA256 under the names key.
    public func token(_ path: String) -> String {
        String(Hashing.hmacSHA256Hex(key: namesKey, message: Array(path.utf8)).prefix(32))
    }

    /// The output `plaintext` sealed for publishing at `path` (its path in the output folder):
    /// `magic`, the 32-byte id, then AES-256-GCM's ciphertext and tag.
    public func seal(_ plaintext: [UInt8], at path: String) -> [UInt8] {
        let id = outputID(plaintext, at: path)
        let box = try! AES.GCM.seal(plaintext, using: outputKey(id: id, path: path), nonce: Self.nonce, authenticating: Self.magic)
        return Self.magic + id + Array(box.ciphertext) + Array(box.tag)
    }

    /// The plaintext of an envelope sealed for `path`; nil when it was sealed for another path or
    /// key, or changed.
    public func open(_ envelope: [UInt8], at path: String) -> [UInt8]? {
        let head = Self.magic.count + 32
        guard envelope.count >= head + 16, Array(envelope.prefix(Self.magic.count)) == Self.magic else { return nil }
        let id = Array(envelope[Self.magic.count..<head])
        guard let box = try? AES.GCM.SealedBox(
            nonce: Self.nonce, ciphertext: envelope[head..<(envelope.count - 16)], tag: envelope.suffix(16)),
            let plain = try? AES.GCM.open(box, using: outputKey(id: id, path: path), authenticating: Self.magic)
        else { return nil }
        return Array(plain)
    }

    /// What tells this key from another without showing it (for the build store's options; it
    /// never leaves the cache folder).
    public var fingerprint: String {
        Hashing.hmacSHA256Hex(key: idKey, message: Array("fingerprint".utf8))
    }

    private func outputID(_ plaintext: [UInt8], at path: String) -> [UInt8] {
        var mac = HMAC<SHA256>(key: SymmetricKey(data: idKey))
        mac.update(data: Array(path.utf8) + [0])
        mac.update(data: plaintext)
        return Array(mac.finalize())
    }

    private func outputKey(id: [UInt8], path: String) -> SymmetricKey {
        Self.expand(key, salt: id, info: Array("plein sealed output v1".utf8) + [0] + Array(path.utf8))
    }

    /// Zero: each output key seals one plaintext only.
    private static var nonce: AES.GCM.Nonce { try! AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 12)) }

    private static func expand(_ key: [UInt8], salt: [UInt8], info: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: key), salt: salt, info: info, outputByteCount: 32)
    }
}

/// The members-only groups that have a key, by id.
public typealias Sealing = [String: SealedGroup]
