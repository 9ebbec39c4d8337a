import Foundation
import PleinBuild
@testable import PleinServer
import Testing

@Suite struct HostPolicyTests {
    let policy = HostPolicy(host: "127.0.0.1", allowed: ["plein.test"])

    @Test(arguments: ["localhost:1313", "127.0.0.1:1313", "[::1]:1313", "LOCALHOST", "localhost.:1313", "plein.test:1313", "site.localhost:1313"])
    func theServedNamesAreAnswered(_ host: String) {
        #expect(policy.allows(hostHeader: host), "\(host)")
    }

    @Test(arguments: ["attacker.example", "attacker.example:1313", "10.0.0.5:1313", "localhost.attacker.example", "", "a:b:c", "[::1", "localhost:x"])
    func otherNamesAreRefused(_ host: String) {
        #expect(!policy.allows(hostHeader: host), "\(host)")
    }

    @Test func everyInterfaceAcceptsAddressesButNotNames() {
        let open = HostPolicy(host: "0.0.0.0")
        #expect(open.allows(hostHeader: "192.168.1.20:1313"))
        #expect(open.allows(hostHeader: "[fe80::1]:1313"))
        #expect(!open.allows(hostHeader: "attacker.example:1313"))
    }

    @Test func theReloadSocketIsSameOriginOnly() {
        #expect(policy.allows(origin: "http://localhost:1313", hostHeader: "localhost:1313"))
        #expect(policy.allows(origin: "http://[::1]:1313", hostHeader: "[::1]:1313"))
        #expect(policy.allows(origin: nil, hostHeader: "localhost:1313"))
        #expect(!policy.allows(origin: "http://attacker.example", hostHeader: "localhost:1313"))
        #expect(!policy.allows(origin: "http://localhost:9999", hostHeader: "localhost:1313"))
        #expect(!policy.allows(origin: "https://localhost:1313", hostHeader: "localhost:1313"))
        #expect(!policy.allows(origin: "null", hostHeader: "localhost:1313"))
    }

    /// An origin is scheme://host[:port]; anything else (a user, a path, escapes) is refused.
    @Test(arguments: ["http://attacker.example@localhost:1313", "http://localhost:1313@attacker.example", "http://localhost:1313/",
                      "http://localhost:1313/x", "http://localhost:1313?x", "http://localhost:1313#x", "http://local%68ost:1313",
                      "http://localhost:1313:1313", "http://localhost:", "http://", "HTTP://localhost:1313", "http://localhost :1313",
                      "http://[::1]x:1313", "ws://localhost:1313"])
    func anOriginIsNothingButSchemeHostAndPort(_ origin: String) {
        #expect(!policy.allows(origin: origin, hostHeader: "localhost:1313"), "\(origin)")
    }

    @Test func anAbsoluteTargetNamesItsHost() {
        #expect(HostPolicy.authority(ofTarget: "http://localhost:1313/users/?a=b") == "localhost:1313")
        #expect(HostPolicy.authority(ofTarget: "HTTP://Example.org") == "Example.org")
        #expect(HostPolicy.authority(ofTarget: "http://[::1]:1313/") == "[::1]:1313")
        #expect(HostPolicy.authority(ofTarget: "http://user@localhost/") == nil)
        #expect(HostPolicy.authority(ofTarget: "http:///path") == nil)
        #expect(HostPolicy.authority(ofTarget: "https://localhost/") == nil)
        #expect(HostPolicy.authority(ofTarget: "localhost:1313") == nil)
    }

    @Test func theRefusalSaysHowToAllowIt() {
        let text = policy.refusal(hostHeader: "attacker.example:1313", origin: nil)
        #expect(text.contains("'attacker.example'"))
        #expect(text.contains("plein serve --allow-host attacker.example"))
    }
}

@Suite struct ByteRangeTests {
    @Test func ranges() {
        #expect(ByteRange.parse("bytes=0-9", size: 100) == .part(0..<10))
        #expect(ByteRange.parse("bytes=90-", size: 100) == .part(90..<100))
        #expect(ByteRange.parse("bytes=-5", size: 100) == .part(95..<100))
        #expect(ByteRange.parse("bytes=50-500", size: 100) == .part(50..<100))
        #expect(ByteRange.parse("bytes=100-", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=0-1,5-6", size: 100) == .whole)
        #expect(ByteRange.parse("items=0-1", size: 100) == .whole)
        #expect(ByteRange.parse("bytes=9-3", size: 100) == .whole)
    }

    /// A suffix longer than any number is longer than the file: all of it (RFC 9110, 14.1.3).
    @Test func aSuffixTooLongForAnIntegerIsTheWholeFile() {
        #expect(ByteRange.parse("bytes=-99999999999999999999", size: 100) == .part(0..<100))
        #expect(ByteRange.parse("bytes=0-99999999999999999999", size: 100) == .part(0..<100))
        #expect(ByteRange.parse("bytes=99999999999999999999-", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-\u{0663}", size: 100) == .whole, "digits are ASCII digits")
    }
}

/// Files of the site on disk (plein's cache) are answered without reading them whole.
@Suite struct DiskFileTests {
    @Test func rangesHeadAndETagsOfAFile() throws {
        let path = NSTemporaryDirectory() + "plein-served-" + UUID().uuidString
        try Data((0..<100_000).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let snapshot = SiteSnapshot(files: ["reports/1094/a/plan.pdf": .disk(path)], problems: nil)
        let whole = Preview.respond(method: "GET", path: "/reports/1094/a/plan.pdf", conditions: .init(), snapshot: snapshot)
        #expect(whole.status == 200)
        #expect(whole.body == .file(path: path, offset: 0, count: 100_000))
        #expect(whole.headers["Content-Length"] == "100000")
        #expect(whole.headers["Accept-Ranges"] == "bytes")
        let etag = try #require(whole.headers["ETag"])
        let again = Preview.respond(method: "GET", path: "/reports/1094/a/plan.pdf", conditions: .init(ifNoneMatch: etag), snapshot: snapshot)
        #expect(again.status == 304 && again.bytes.isEmpty)
        let part = Preview.respond(method: "GET", path: "/reports/1094/a/plan.pdf", conditions: .init(range: "bytes=1000-1009"), snapshot: snapshot)
        #expect(part.status == 206)
        #expect(part.headers["Content-Range"] == "bytes 1000-1009/100000")
        #expect(part.bytes == (1000..<1010).map { UInt8($0 % 251) })
        let head = Preview.respond(method: "HEAD", path: "/reports/1094/a/plan.pdf", conditions: .init(), snapshot: snapshot)
        #expect(head.status == 200 && head.body == .bytes([]) && head.headers["Content-Length"] == "100000")
        let outside = Preview.respond(method: "GET", path: "/reports/1094/a/plan.pdf", conditions: .init(range: "bytes=200000-"), snapshot: snapshot)
        #expect(outside.status == 416 && outside.headers["Content-Range"] == "bytes */100000")
    }

    /// `If-Range` asks for the part only if the file is still the one the client has: another
    /// validator (or a date, as no Last-Modified is sent) means the whole file, 200 (RFC 9110, 13.1.5).
    @Test func ifRangeWithAnotherValidatorGetsTheWholeFile() throws {
        let path = NSTemporaryDirectory() + "plein-served-" + UUID().uuidString
        try Data((0..<1000).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let snapshot = SiteSnapshot(files: ["a/talk.mp3": .disk(path)], problems: nil)
        func get(range: String, ifRange: String?) -> PreviewResponse {
            Preview.respond(method: "GET", path: "/a/talk.mp3", conditions: .init(range: range, ifRange: ifRange), snapshot: snapshot)
        }
        let etag = try #require(get(range: "bytes=0-9", ifRange: nil).headers["ETag"])
        let current = get(range: "bytes=10-19", ifRange: etag)
        #expect(current.status == 206 && current.bytes == (10..<20).map { UInt8($0 % 251) })
        for other in ["\"stale\"", "W/" + etag, "Sat, 01 Jan 2000 00:00:00 GMT", ""] {
            let whole = get(range: "bytes=10-19", ifRange: other)
            #expect(whole.status == 200 && whole.headers["Content-Range"] == nil && whole.headers["Content-Length"] == "1000", "\(other)")
            #expect(whole.body == .file(path: path, offset: 0, count: 1000), "\(other)")
        }
        let outside = get(range: "bytes=5000-", ifRange: "\"stale\"")
        #expect(outside.status == 200, "an old validator makes the range moot, even one outside the file")
    }

    @Test func aLinkInPlaceOfACachedFileIsNotFollowed() throws {
        let path = NSTemporaryDirectory() + "plein-served-" + UUID().uuidString
        #expect(symlink("/etc/passwd", path) == 0)
        defer { unlink(path) }
        let snapshot = SiteSnapshot(files: ["x.txt": .disk(path)], problems: nil)
        let answer = Preview.respond(method: "GET", path: "/x.txt", conditions: .init(), snapshot: snapshot)
        #expect(answer.status == 404)
        #expect(!String(decoding: answer.bytes, as: UTF8.self).contains("root:"))
    }

    @Test func unknownMethodsAre405WithAReason() {
        let answer = Preview.respond(method: "FOO", path: "/", conditions: .init(), snapshot: SiteSnapshot(files: [:], problems: nil))
        #expect(answer.status == 405 && answer.headers["Allow"] == "GET, HEAD" && !answer.bytes.isEmpty)
    }
}
