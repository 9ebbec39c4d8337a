import Foundation
@testable import PleinCore
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

    @Test func containsByteFindsBytes() {
        #expect("a\nb".containsByte(10))
        #expect(!"ab".containsByte(10))
        #expect(!"".containsByte(0))
        #expect("é".containsByte(0xA9))
    }
}

/// A small seeded generator, so the samples are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
