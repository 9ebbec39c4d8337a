import PleinCore
import Testing

/// `sortedByBytes` gives `sorted()`'s order: for ASCII strings by their bytes, for any other by
/// Swift's own comparison.
@Suite struct SortingTests {
    /// A seeded generator, so that a failure is the same on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    @Test(arguments: [
        ["a", "b", "ab", "", "1015/2026-11-05-x", "1015/2026-11-05", "1015/2026-11-05-x-2", "Z", "z", "-", "/"],
        ["é", "e\u{301}", "f", "ea", "ez", "café", "cafe", "cafz"],
    ])
    func ordersAsSorted(alphabet: [String]) {
        var random = Seeded(state: 42)
        for size in [0, 1, 65, 500] {
            // Joined pieces of the alphabet: many share their starts, some repeat.
            let strings = (0..<size).map { _ in (0..<Int.random(in: 0...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined() }
            #expect(strings.sortedByBytes() == strings.sorted())
        }
        #expect(Array(repeating: "", count: 100).sortedByBytes() == Array(repeating: "", count: 100))
    }
}
