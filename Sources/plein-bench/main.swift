// plein-bench: measures the incremental rebuild of `plein serve` after one edited file.
//
//     plein-bench [--store] <content> <templates> <file relative to content> [edits]
//
// Builds the site as `plein serve` does (in memory, tracking what each output read), then edits
// the file `edits` times (appending a sentence to its body, each time a different one) and
// measures each rebuild as the dev server does it: `SiteState.update` plus the snapshot of all
// files it publishes. Prints one JSON object; restores the file at the end.
//
// With `--store`, each rebuild is instead a build with the build store (`Pipeline.build`, into
// an output and a cache folder of its own under the system's temporary folder), in this one
// process: what the store's update costs warm, as `serve` would pay it if it kept the store as
// its memory (but for the scan of every file, which the watcher makes needless there).
import PleinText
import Foundation
import PleinBuild

var arguments = CommandLine.arguments
let overStore = arguments.count > 1 && arguments[1] == "--store"
if overStore { arguments.remove(at: 1) }
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: plein-bench [--store] <content> <templates> <file relative to content> [edits]\n".utf8))
    exit(2)
}
let (content, templates, file) = (arguments[1], arguments[2], arguments[3])
let edits = arguments.count > 4 ? Int(arguments[4]) ?? 20 : 20
let path = content + "/" + file
guard let original = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("plein-bench: cannot read \(path)\n".utf8))
    exit(2)
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

var options = BuildOptions(content: content, templates: templates, output: "/nonexistent-plein-bench-output",
                           environment: ProcessInfo.processInfo.environment)
options.baseURL = "http://localhost:1313/"

// One update after each edit: what it rendered, and (in memory) how many files changed or (with
// the store) whether it went record by record.
let full: Double
let update: () -> (rendered: Int, changed: Int?, byRecord: Bool, succeeded: Bool)
var scratch: String?
let fullStart = now()
if overStore {
    let folder = NSTemporaryDirectory() + "/plein-bench-store-\(ProcessInfo.processInfo.processIdentifier)"
    scratch = folder
    options.output = folder + "/public"
    options.cache = folder + "/cache"
    let first = Pipeline.build(options)
    full = Double(now() - fullStart) / 1e6
    guard first.succeeded else {
        try? FileManager.default.removeItem(atPath: folder)
        FileHandle.standardError.write(Data("plein-bench: the site has errors; run plein check\n".utf8))
        exit(1)
    }
    update = { [options] in
        let report = Pipeline.build(options)
        return (report.rendered ?? 0, nil, report.recordByRecord, report.succeeded)
    }
} else {
    var state = SiteState(options, tracking: true)
    _ = state.files
    full = Double(now() - fullStart) / 1e6
    guard state.succeeded else {
        FileHandle.standardError.write(Data("plein-bench: the site has errors; run plein check\n".utf8))
        exit(1)
    }
    update = {
        let made = state.update(content: [file], templates: [])
        _ = state.files
        return (made.rendered, made.changed.count, false, state.succeeded)
    }
}

var times: [Double] = []
var rendered: [Int] = []
var changed: [Int] = []
var byRecord = 0
var succeeded = true
for edit in 0..<edits {
    var bytes = original
    bytes.append(contentsOf: Array("\nEdit number \(edit) of the benchmark.\n".utf8))
    _ = FileManager.default.createFile(atPath: path, contents: bytes)
    let start = now()
    let made = update()
    times.append(Double(now() - start) / 1e6)
    rendered.append(made.rendered)
    if let count = made.changed { changed.append(count) }
    if made.byRecord { byRecord += 1 }
    succeeded = succeeded && made.succeeded
}
_ = FileManager.default.createFile(atPath: path, contents: original)
if let scratch { try? FileManager.default.removeItem(atPath: scratch) }

let sorted = times.sorted()
var result: [String: Any] = [
    "full_build_ms": full,
    "edits": edits,
    "median_ms": sorted[sorted.count / 2],
    "max_ms": sorted.last ?? 0,
    "min_ms": sorted.first ?? 0,
    "outputs_rendered": rendered.max() ?? 0,
    "succeeded": succeeded,
]
if overStore { result["record_by_record"] = byRecord } else { result["outputs_changed"] = changed.max() ?? 0 }
let json = try! JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
