import Foundation
import PleinCore
import PleinTestSupport
@testable import PleinFuzzing
import Testing

/// Every input a fuzzer once crashed on stays here as a test, with the demo's files (the seed
/// corpus of `make fuzz`) and a short deterministic mutation run over them, so the promises the
/// fuzz targets check are also checked by every `make test`.
struct FuzzRegressionTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
    static let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("content").path

    /// The fuzz targets, each with a folder of saved inputs in `Regressions/`.
    static let targets = ["content", "markdown"]

    /// The saved inputs of a target: a missing folder or an unreadable file fails, rather than
    /// leaving fewer inputs to test.
    static func regressions(_ target: String) throws -> [[UInt8]] {
        let folder = here + "/Regressions/" + target
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        return try names.map { name in Array(try #require(FileManager.default.contents(atPath: folder + "/" + name), "\(target)/\(name)")) }
    }

    /// A broken promise is a failure that names its input (as bytes, to save as a regression),
    /// never a crash of the test run.
    static func expectContentKeepsPromises(_ input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let broken = FuzzEntry.checkContent(input).broken
        #expect(broken.isEmpty, "\(broken) for input \(input.prefix(200))", sourceLocation: sourceLocation)
    }

    static func expectMarkdownKeepsPromises(_ input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let broken = FuzzEntry.checkMarkdown(input)
        #expect(broken.isEmpty, "\(broken) for input \(input.prefix(200))", sourceLocation: sourceLocation)
    }

    @Test func savedCrashesStayFixed() throws {
        // Every folder in Regressions/ is a target's: inputs saved under another name are not lost.
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.here + "/Regressions").filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Set(Self.targets), "Regressions/ holds \(folders.sorted()); the targets are \(Self.targets)")
        let content = try Self.regressions("content"), markdown = try Self.regressions("markdown")
        #expect(content.count + markdown.count > 0, "no saved input: the test would pass whatever plein did")
        for input in content { Self.expectContentKeepsPromises(input) }
        for input in markdown { Self.expectMarkdownKeepsPromises(input) }
    }

    @Test func theBaseCommunityIsClean() {
        // Each seed becomes the file its kind names; with the base's own file it must load cleanly,
        // or every fuzz input would only ever exercise error paths.
        for (path, text) in FuzzEntry.base {
            guard let kind = FuzzEntry.paths.firstIndex(of: path) else { continue }
            let (diagnostics, broken) = FuzzEntry.checkContent([UInt8(kind)] + Array(text.utf8))
            #expect(broken.isEmpty, "\(path): \(broken)")
            #expect(!diagnostics.hasErrors, "\(path): \(diagnostics.map(\.message))")
        }
    }

    @Test func everyDemoFileIsASeed() {
        let seeds = FuzzEntry.contentSeeds(from: Self.demo)
        #expect(seeds.count > 80)
        for seed in seeds { Self.expectContentKeepsPromises(seed.bytes) }
    }

    /// A few thousand byte-level mutations of the seeds (flips, cuts, insertions of the bytes
    /// that break parsers), the same every run.
    @Test func deterministicMutationsKeepThePromises() {
        var random = SplitMix(seed: 20261122)
        let seeds = FuzzEntry.contentSeeds(from: Self.demo).map(\.bytes)
        let interesting: [[UInt8]] = [[0], [0xFF], [0xC3], [0xEF, 0xBB, 0xBF], Array("---\n".utf8), Array("&a [*a]".utf8),
                                      Array(": ".utf8), Array("\t".utf8), Array("[[[[".utf8), Array("{".utf8), Array("\r".utf8)]
        for round in 0..<1500 {
            var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
            for _ in 0..<(1 + Int(random.next() % 4)) {
                guard bytes.count > 1 else { break }
                let at = 1 + Int(random.next() % UInt64(bytes.count - 1))
                switch random.next() % 4 {
                case 0: bytes[at] ^= UInt8(1 << (random.next() % 8))
                case 1: bytes.removeSubrange(at...)
                case 2: bytes.insert(contentsOf: interesting[Int(random.next() % UInt64(interesting.count))], at: at)
                default: bytes.removeSubrange(at..<min(bytes.count, at + Int(random.next() % 16)))
                }
            }
            Self.expectContentKeepsPromises(bytes)
            if round % 3 == 0 { Self.expectMarkdownKeepsPromises(Array(bytes.dropFirst())) }
        }
    }
}
