import Foundation
import PleinCore
import PleinRender
import Synchronization

/// The render stage: outputs rendered in parallel, an Atom feed with its JSON Feed twin. With
/// tracking, each output comes back with what it read; with a stream, each is written as it is
/// made and only its path is kept.
struct RenderStage {
    let renderer: Renderer
    let tracking: Bool
    let stream: OutputWriter?
    /// Whether to print where render time goes, by kind of output (`BuildOptions.timings`).
    let timings: Bool
    /// Whether each output comes back with the SHA-256 of its bytes (for the build store).
    var hashing = false

    struct Rendered {
        let id: OutputID
        let file: OutputFile
        let dependencies: Set<Dependency>
        /// Empty unless `hashing`.
        let hash: [UInt8]
        /// With `hashing`, the digest of what it read (`ReadsDigest`, made on the rendering core):
        /// the store keeps an output that read what it read before without finding the index of
        /// each of its reads again (`Remembered.take`). Else empty.
        var reads: [UInt8] = []
    }

    /// How much of the model an output reads: 3 for every report's, 2 for many records'.
    private static func weight(_ id: OutputID) -> Int {
        switch id {
        case .geoJSON(.reports), .areas, .sitemap: 3
        case .area, .geoJSON(.area), .home, .atom(.site), .jsonFeed(.site), .events, .members, .groups, .leaderboard: 2
        default: 1
        }
    }

    /// The outputs, and the first failure to write a streamed one.
    func run(_ ids: [OutputID]) -> (outputs: [Rendered], failure: OutputWriter.Failure?) {
        let profile = KindProfile(enabled: timings)
        let failures = Mutex<OutputWriter.Failure?>(nil)
        // The outputs of every report first (the map of every report, the page of areas, the
        // sitemap), then those of many: started last, one of them would leave a core idle while
        // it ends the build.
        let batches = OutputID.batches(ids)
        let order = batches.indices.sorted { a, b in
            let (wa, wb) = (Self.weight(batches[a][0]), Self.weight(batches[b][0]))
            return wa != wb ? wa > wb : a < b
        }
        var placed: [Int] = Array(repeating: 0, count: batches.count)
        for (place, index) in order.enumerated() { placed[index] = place }
        let made: [[Rendered]] = parallelMap(order.map { batches[$0] }) { [renderer, tracking, stream, hashing] batch in
            let start = DispatchTime.now().uptimeNanoseconds
            defer { profile.add(batch[0], DispatchTime.now().uptimeNanoseconds - start) }
            let (files, dependencies) = tracking ? renderer.renderTracked(batch: batch) : (renderer.render(batch: batch), [])
            let reads = hashing && tracking ? ReadsDigest.digest(dependencies.lazy.map(ReadsDigest.hash)) : []
            return zip(batch, files).map { id, file in
                let hash = hashing ? Hashing.sha256(file.bytes) : []
                guard let stream else { return Rendered(id: id, file: file, dependencies: dependencies, hash: hash, reads: reads) }
                do throws(OutputWriter.Failure) { try stream.write(file) } catch { failures.locked { $0 = $0 ?? error } }
                return Rendered(id: id, file: OutputFile(path: file.path, bytes: []), dependencies: dependencies, hash: hash, reads: reads)
            }
        }
        let rendered = batches.indices.flatMap { made[placed[$0]] }
        profile.report()
        return (rendered, failures.locked { $0 })
    }
}

/// With `BuildOptions.timings`: where render time goes, by kind of output, and the slowest
/// outputs.
final class KindProfile: Sendable {
    private let totals = Mutex<[String: (count: Int, nanoseconds: UInt64)]>([:])
    private let slowest = Mutex<[(id: OutputID, nanoseconds: UInt64)]>([])
    private let enabled: Bool

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func add(_ id: OutputID, _ nanoseconds: UInt64) {
        guard enabled else { return }
        let kind = id.kind.rawValue
        totals.locked { $0[kind, default: (0, 0)].count += 1; $0[kind]!.nanoseconds += nanoseconds }
        slowest.locked { kept in
            guard kept.count < 5 || nanoseconds > kept[kept.count - 1].nanoseconds else { return }
            kept.append((id, nanoseconds))
            kept.sort { $0.nanoseconds > $1.nanoseconds }
            if kept.count > 5 { kept.removeLast() }
        }
    }

    func report() {
        guard enabled else { return }
        for (kind, total) in totals.locked({ $0 }).sorted(by: { $0.value.nanoseconds > $1.value.nanoseconds }) {
            FileHandle.standardError.write(Data("    \(kind): \(total.count) in \(total.nanoseconds / 1_000_000) ms\n".utf8))
        }
        let slowest = slowest.locked { $0 }.map { "\($0.id) \($0.nanoseconds / 1_000_000) ms" }
        if !slowest.isEmpty { FileHandle.standardError.write(Data("    slowest: \(slowest.joined(separator: ", "))\n".utf8)) }
    }
}
