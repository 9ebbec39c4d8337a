// Writes the seed corpora of `make fuzz` from a content folder, or runs inputs through the fuzz
// targets without libFuzzer (`scripts/sanitize` does, under AddressSanitizer and ThreadSanitizer):
//     plein-fuzz-seeds <content folder> <corpus folder>
//         makes <corpus folder>/content (for plein-fuzz-content) and <corpus folder>/markdown
//     plein-fuzz-seeds --run <folder>...
//         runs every file of each folder's content/ and markdown/ through the target of that name
//         (a broken promise stops the process, as under the fuzzer)
import Foundation
import PleinFuzzing

let arguments = CommandLine.arguments
if arguments.count >= 3, arguments[1] == "--run" {
    var ran: [String: Int] = ["content": 0, "markdown": 0]
    for folder in arguments.dropFirst(2) {
        for kind in ["content", "markdown"] {
            let inputs = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + kind)) ?? []
            for name in inputs.sorted() {
                guard let data = FileManager.default.contents(atPath: folder + "/" + kind + "/" + name) else { continue }
                if kind == "content" { FuzzEntry.content(Array(data)) } else { FuzzEntry.markdown(Array(data)) }
                ran[kind, default: 0] += 1
            }
        }
    }
    print("ran \(ran["content"]!) content and \(ran["markdown"]!) markdown inputs through the fuzz targets")
    if ran.values.reduce(0, +) == 0 {
        FileHandle.standardError.write(Data("plein-fuzz-seeds: no input in \(arguments.dropFirst(2).joined(separator: " "))\n".utf8))
        exit(1)
    }
    exit(0)
}
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: plein-fuzz-seeds <content folder> <corpus folder> | --run <folder>...\n".utf8))
    exit(2)
}
for (kind, seeds) in [("content", FuzzEntry.contentSeeds(from: arguments[1])), ("markdown", FuzzEntry.markdownSeeds(from: arguments[1]))] {
    let folder = arguments[2] + "/" + kind
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for seed in seeds {
        _ = FileManager.default.createFile(atPath: folder + "/" + seed.name, contents: Data(seed.bytes))
    }
    print("\(seeds.count) \(kind) seeds in \(folder)")
}
