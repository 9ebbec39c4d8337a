import Foundation
@testable import PleinLoad
@testable import PleinCore
import PleinTestSupport
import Testing

/// The byte-level fast paths must agree with the plain definitions they replace.
@Suite struct TextTests {
    /// Strings mixing ASCII, spaces of every kind, controls, noncharacters and emoji.
    static func samples() -> [String] {
        let pieces: [String] = [
            "a", "Zoë", " ", "\t", "\n", "\r", "\u{00A0}", "\u{3000}", "\u{2009}", "\u{0007}", "\u{007F}", "\u{0085}",
            "\u{009F}", "\u{00A9}", String(Unicode.Scalar(0xFDD0)!), String(Unicode.Scalar(0xFDEF)!), "\u{FEFF}", "\u{FFFD}", String(Unicode.Scalar(0xFFFE)!), String(Unicode.Scalar(0xFFFF)!), String(Unicode.Scalar(0x1FFFE)!),
            "\u{10FFFF}", "😀", "é", "\u{0301}", "-", "}",
        ]
        var generator = SplitMix(seed: 20261122)
        var out: [String] = pieces
        for _ in 0..<3000 {
            let length = Int.random(in: 0...8, using: &generator)
            out.append((0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        return out
    }

    @Test func cleaningAgreesWithTheScalarFilter() {
        for text in Self.samples() {
            var expected = ""
            expected.unicodeScalars.append(contentsOf: text.unicodeScalars.filter(CleanText.isAllowed))
            #expect(CleanText.clean(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func trimmingAgreesWithFoundation() {
        for text in Self.samples() {
            #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func valuesLoseBidiControlsButKeepRightToLeftText() {
        #expect(CleanText.cleanValue("Mallory \u{202E}evil\u{202C}") == "Mallory evil")
        #expect(CleanText.cleanValue("\u{2066}a\u{2069} שלום") == "a שלום")
        #expect(CleanText.cleanValue("Zoë\u{0007}") == "Zoë")
        #expect(CleanText.clean("body \u{202E}kept") == "body \u{202E}kept")
    }

    @Test func nulBytesAreAWarningWithTheirPlace() {
        let files: [String: [UInt8]] = [
            "site.yaml": Array("title: T\nbase_url: https://t.example/\nlanguage: nl\ntimezone: Europe/Amsterdam\n".utf8),
            "users/anna.md": Array("---\nname: Anna\nemail: a@example.org\n---\nEen\nTw".utf8) + [0] + Array("ee\n".utf8),
        ]
        let loaded = ContentLoader.load(.memory(files))
        let nul = loaded.diagnostics.filter { $0.problem == .nulBytes }
        #expect(nul.count == 1)
        #expect(nul.first?.file == "users/anna.md")
        #expect(nul.first?.span == Span(line: 6, column: 3))
        #expect(nul.first?.severity == .warning)
    }

    @Test func containsByteFindsBytes() {
        #expect("a\nb".containsByte(10))
        #expect(!"ab".containsByte(10))
        #expect(!"".containsByte(0))
        #expect("é".containsByte(0xA9))
    }
}
