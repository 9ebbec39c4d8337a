import Crypto
import Foundation

/// Content hashes and keyed hashes, through swift-crypto.
public enum Hashing {
    /// SHA-256 of `bytes`, as lowercase hex.
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// SHA-256 of `bytes`: 32 bytes, for keeping rather than showing.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    /// Subresource Integrity of `bytes` as a page's `integrity` attribute: `sha384-` and the
    /// base64 of their SHA-384.
    public static func subresourceIntegrity(_ bytes: [UInt8]) -> String {
        "sha384-" + Data(SHA384.hash(data: bytes)).base64EncodedString()
    }

    /// HMAC-SHA256 of `message` under `key`: 32 bytes.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// HMAC-SHA256 of `message` under `key`, as lowercase hex.
    public static func hmacSHA256Hex(key: [UInt8], message: [UInt8]) -> String {
        hex(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// SHA-256 over bytes that arrive in pieces (a large file read in chunks).
    public struct Stream {
        private var hasher = SHA256()
        public init() {}
        public mutating func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }
        public consuming func finalizeHex() -> String { Hashing.hex(hasher.finalize()) }
        public func finalize() -> [UInt8] { Array(hasher.finalize()) }
    }

    fileprivate static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
