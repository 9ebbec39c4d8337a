import Foundation
public import PleinCore
/// The URL keys of message threads: HMAC-SHA256(secret, thread id) in hex, the first 32
/// characters (128 bits). Without the secret nobody can compute a thread's address; with the
/// same secret every build gives the same addresses.
///
/// A thread's page is sealed (`SealedGroup`, docs/encryption.md) under a key of its own, which
/// its link carries after `#` (`fragment(for:)`): browsers never send that part to a server, so
/// neither the host nor a copy of the site without the link can read the thread.
public struct ThreadKeys: Sendable {
    private let secret: [UInt8]

    public init?(secret: [UInt8]) {
        guard !secret.isEmpty else { return nil }
        self.secret = secret
    }

    /// The key for one thread.
    public func key(for thread: String) -> String {
        Self.key(secret: secret, message: Array(thread.utf8))
    }

    /// The key a thread's page is sealed with: HMAC-SHA256(secret, "plein thread key v1" || 0x00 ||
    /// thread id), used as a group key is (`SealedGroup`).
    public func sealing(for thread: String) -> SealedGroup {
        SealedGroup(id: thread, salt: [], iterations: 0, key: linkKey(for: thread))
    }

    /// What a thread's link carries after `#`: its key in base64url, without padding.
    public func fragment(for thread: String) -> String {
        Data(linkKey(for: thread)).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private func linkKey(for thread: String) -> [UInt8] {
        Hashing.hmacSHA256(key: secret, message: Array("plein thread key v1".utf8) + [0] + Array(thread.utf8))
    }

    /// HMAC-SHA256 truncated to 128 bits, in hex (as in RFC 4231 test case 5).
    public static func key(secret: [UInt8], message: [UInt8]) -> String {
        String(Hashing.hmacSHA256Hex(key: secret, message: message).prefix(32))
    }
}
