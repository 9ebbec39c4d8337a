@testable import PleinCore
@testable import PleinModel
import Testing

/// RFC 4231 test vectors for HMAC-SHA256, through the functions the build uses.
@Suite struct ThreadKeyTests {
    func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    @Test func rfc4231TestVectors() {
        let cases: [(key: [UInt8], data: [UInt8], mac: String)] = [
            (Array(repeating: 0x0b, count: 20), Array("Hi There".utf8),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            (Array(repeating: 0xaa, count: 20), Array(repeating: 0xdd, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            (bytes("0102030405060708090a0b0c0d0e0f10111213141516171819"), Array(repeating: 0xcd, count: 50),
             "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            (Array(repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
            (Array(repeating: 0xaa, count: 131),
             Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ]
        for c in cases {
            #expect(Hashing.hmacSHA256Hex(key: c.key, message: c.data) == c.mac)
        }
    }

    /// Test case 5 is HMAC-SHA256 truncated to 128 bits: exactly how thread keys are made.
    @Test func rfc4231TruncatedVectorIsAThreadKey() {
        let key = ThreadKeys.key(secret: Array(repeating: 0x0c, count: 20), message: Array("Test With Truncation".utf8))
        #expect(key == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test func keysAreStableAndDependOnTheSecret() throws {
        let a = try #require(ThreadKeys(secret: Array("one".utf8)))
        let b = try #require(ThreadKeys(secret: Array("two".utf8)))
        #expect(a.key(for: "duiken") == a.key(for: "duiken"))
        #expect(a.key(for: "duiken") != b.key(for: "duiken"))
        #expect(a.key(for: "duiken") != a.key(for: "duiken2"))
        #expect(a.key(for: "duiken").count == 32)
        #expect(ThreadKeys(secret: []) == nil)
    }
}
