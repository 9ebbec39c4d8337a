@testable import PleinBuild
import Testing

/// `ServedFiles` answers as one dictionary would, through sets, removals and folds.
struct ServedFilesTests {
    @Test func answersAsADictionaryThroughSetsRemovalsAndFolds() {
        var files = ServedFiles()
        var expected: [String: SiteState.Served] = [:]
        var generator = SystemRandomNumberGenerator()
        for step in 0..<6_000 {
            let path = "p\(Int.random(in: 0..<1_500, using: &generator))"
            if step % 5 == 0 {
                files.removeValue(forKey: path)
                expected.removeValue(forKey: path)
            } else {
                files[path] = .disk("v\(step)")
                expected[path] = .disk("v\(step)")
            }
            // A version held elsewhere (the server's) is not changed by what follows.
            if step == 3_000 {
                let held = files
                let copy = expected
                files["p0"] = .disk("later")
                expected["p0"] = .disk("later")
                #expect(same(held, copy))
            }
        }
        #expect(same(files, expected))
        #expect(files.count == expected.count)
        #expect(Set(files.keys) == Set(expected.keys))
    }

    private func same(_ files: ServedFiles, _ expected: [String: SiteState.Served]) -> Bool {
        guard files.dictionary.count == expected.count else { return false }
        for (path, served) in expected {
            guard case .disk(let a) = served, case .disk(let b)? = files[path], a == b else { return false }
        }
        return (0..<1_500).allSatisfy { (files["p\($0)"] == nil) == (expected["p\($0)"] == nil) }
    }
}
