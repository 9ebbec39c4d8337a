public import PleinCore
/// The URL keys of message threads: HMAC-SHA256(secret, thread id) in hex, the first 32
/// characters (128 bits). Without the secret nobody can compute a thread's address; with the
/// same secret every build gives the same addresses.
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

    /// HMAC-SHA256 truncated to 128 bits, in hex (as in RFC 4231 test case 5).
    public static func key(secret: [UInt8], message: [UInt8]) -> String {
        String(Hashing.hmacSHA256Hex(key: secret, message: message).prefix(32))
    }
}
