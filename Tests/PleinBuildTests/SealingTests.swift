import Foundation
import PleinCore
@testable import PleinBuild
import Testing

/// Members-only groups: the key derivation against RFC 7914's vector, envelopes that open only
/// with their key at their path, the passphrase rules, and a build of the demo's group
/// (`Tests/Output/sealed_check.py` opens the same files with another implementation).
@Suite(.serialized) struct SealingTests {
    let group = SealedGroup(id: "g", salt: Array(repeating: 7, count: 16), iterations: 1, key: Array(repeating: 42, count: 32))

    @Test func pbkdf2IsRFC7914sVector() {
        // RFC 7914, section 11: PBKDF2-HMAC-SHA256, P = "passwd", S = "salt", c = 1 (the first 32 bytes).
        let derived = SealingStage.derive(id: "g", passphrase: "passwd", salt: Array("salt".utf8), iterations: 1)
        let expected = SealedGroup(id: "g", salt: Array("salt".utf8), iterations: 1, key: hex("55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"))
        #expect(derived.fingerprint == expected.fingerprint)
    }

    @Test func anEnvelopeOpensOnlyWithItsKeyAtItsPath() {
        let page = Array("<!DOCTYPE html><p>Materiaaldag</p>".utf8)
        let sealed = group.seal(page, at: "groups/g/index.html")
        #expect(Array(sealed.prefix(8)) == Array("plnseal1".utf8))
        #expect(sealed.count == 8 + 32 + page.count + 16)
        #expect(group.open(sealed, at: "groups/g/index.html") == page)
        #expect(group.seal(page, at: "groups/g/index.html") == sealed, "the same bytes at the same path seal the same")
        #expect(group.open(sealed, at: "groups/g/sealed/0/index.html") == nil, "moved to another path")
        let other = SealedGroup(id: "g", salt: group.salt, iterations: 1, key: Array(repeating: 43, count: 32))
        #expect(other.open(sealed, at: "groups/g/index.html") == nil, "another key")
        var changed = sealed
        changed[changed.count - 20] ^= 1
        #expect(group.open(changed, at: "groups/g/index.html") == nil, "a changed byte")
        // Another plaintext at the same path gets another id, so another key.
        let edited = group.seal(Array("<!DOCTYPE html><p>Materiaaldag!</p>".utf8), at: "groups/g/index.html")
        #expect(edited[8..<40] != sealed[8..<40])
        // Nothing of the plaintext is in the envelope.
        #expect(!String(decoding: sealed, as: UTF8.self).contains("Materiaaldag"))
    }

    @Test func namesAreOpaqueAndStable() {
        let token = group.token("groups/g/albums/materiaaldag/")
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit))
        #expect(token == group.token("groups/g/albums/materiaaldag/"))
        #expect(token != group.token("groups/g/albums/materiaaldag/foto/"))
        #expect(SealedGroup.salt(baseURL: "https://a.example/", group: "g") != SealedGroup.salt(baseURL: "https://b.example/", group: "g"))
    }

    @Test func weakPassphrasesAreRefusedWithTheirReason() {
        let avoiding = ["bestuur", "Het Bestuur", "Buurtboek Oost"]
        // Each reason says what is wrong without saying anything of the passphrase (logs are public).
        #expect(Passphrase.weakness("kort", avoiding: avoiding) == "it is shorter than 16 characters")
        #expect(Passphrase.weakness("aaaaaaaaaaaaaaaaaaaa", avoiding: avoiding) == "it has fewer than 8 different characters")
        #expect(Passphrase.weakness("onze-bestuur-kamer-2027", avoiding: avoiding)?.contains("group's id or name") == true)
        #expect(Passphrase.weakness("mijn-wachtwoord-is-geheim", avoiding: avoiding)?.contains("attackers try first") == true)
        // The outside test's three (issue 58): a famous phrase, a password in look-alikes twice, the alphabet.
        #expect(Passphrase.weakness("correct horse battery staple", avoiding: avoiding)?.contains("well-known") == true)
        #expect(Passphrase.weakness("p@ssw0rd-p@ssw0rd-2027", avoiding: avoiding)?.contains("attackers try first") == true)
        #expect(Passphrase.weakness("abcdefghijklmnop", avoiding: avoiding)?.contains("run of characters in order") == true)
        #expect(Passphrase.weakness("zomerfeest-zomerfeest", avoiding: avoiding)?.contains("repeats a part of itself") == true)
        #expect(Passphrase.weakness("qwertyuiop-kelder-fles", avoiding: avoiding) != nil)
        #expect(Passphrase.weakness("de kat en de hond op de mat", avoiding: avoiding) == nil)
        #expect(SealingStage.normalized(" Cafe\u{301}-kelder-fles-lamp ") == "Caf\u{E9}-kelder-fles-lamp")
        #expect(Passphrase.weakness("kelder-fles-ventiel-lamp-2027", avoiding: avoiding) == nil)
        let made = (0..<200).map { _ in Passphrase.generate() }
        #expect(Set(made).count == 200)
        for passphrase in made {
            #expect(passphrase.count == 29 && Passphrase.weakness(passphrase, avoiding: avoiding) == nil, "\(passphrase)")
        }
    }

    @Test func theDemosMembersGroupIsSealedWithItsPassphraseAndAbsentWithout() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let words = ["Bestuurskamer", "Flessenkelder", "Brandaris", "materiaaldag"]
        var options = BuildOptions.test(output: dir.path + "/public", suite: "sealing")
        let report = Pipeline.build(options)
        #expect(report.succeeded)
        #expect(report.diagnostics.contains { $0.problem == .noPassphrase(group: "zeehond-leden", variable: "PLEIN_PASSPHRASE_ZEEHOND_LEDEN") })
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/public/groups/zeehond-leden"))
        #expect(occurrences(of: words, in: dir.path + "/public").isEmpty)

        options = BuildOptions.test(output: dir.path + "/sealed", suite: "sealing")
        options.passphrases = ["PLEIN_PASSPHRASE_ZEEHOND_LEDEN": "kelder-fles-ventiel-lamp-2027"]
        let sealed = Pipeline.build(options)
        #expect(sealed.succeeded)
        let folder = dir.path + "/sealed/groups/zeehond-leden"
        let files = try #require(FileManager.default.subpaths(atPath: folder)).filter { !$0.hasSuffix("/") && $0.contains(".") }
        #expect(files.count > 30)
        #expect(occurrences(of: words, in: dir.path + "/sealed").isEmpty)
        let key = SealingStage.derive(id: "zeehond-leden", passphrase: "kelder-fles-ventiel-lamp-2027",
                                      salt: SealedGroup.salt(baseURL: Pipeline.check(content: Repo.content).content.site.baseURL, group: "zeehond-leden"))
        let media = files.filter { $0.hasSuffix(".bin") }
        for file in media {
            let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + file))
            #expect(key.open(Array(bytes), at: "groups/zeehond-leden/" + file) != nil, "\(file)")
        }

        options.passphrases = ["zeehond-leden": "zeehond-leden-2027"]
        let weak = Pipeline.build(options)
        #expect(!weak.succeeded)
        #expect(weak.diagnostics.contains { if case .weakPassphrase("zeehond-leden", let reason) = $0.problem { reason.contains("group's id") } else { false } })
    }

    private func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
    }
}
