// Writes the seed corpora of `make fuzz` from a content folder:
//     plein-fuzz-seeds <content folder> <corpus folder>
// makes <corpus folder>/content (for plein-fuzz-content) and <corpus folder>/markdown.
import Foundation
import PleinFuzzing

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: plein-fuzz-seeds <content folder> <corpus folder>\n".utf8))
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
