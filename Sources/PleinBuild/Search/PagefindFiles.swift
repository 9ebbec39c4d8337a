import Foundation
import PleinCore
internal import CPleinSystem

/// Pagefind's files made the same for the same records.
///
/// Pagefind writes each filter's values in the order of a hash map, which changes from run to run
/// (its issue #638: the word index and the fragments are stable, the filter and metadata files
/// are not), and names files after their bytes; so the same records gave other filter files, and
/// with their names another metadata file and entry. plein puts each filter's values in byte
/// order, names the files after the new bytes, and writes the new names into the metadata and the
/// entry. The files keep Pagefind's formats: gzip around `pagefind_dcd` and CBOR.
enum PagefindFiles {
    static let signature = Array("pagefind_dcd".utf8)

    /// The files with filters in order and names to match; the files as they were when their
    /// format is not the one expected (nothing is lost, only the sameness).
    static func canonical(_ files: [(path: String, bytes: [UInt8])]) -> [(path: String, bytes: [UInt8])] {
        var renamed: [String: String] = [:]
        var out: [(path: String, bytes: [UInt8])] = []
        // Filters first: the metadata names them.
        for file in files {
            guard file.path.hasPrefix("filter/"), file.path.hasSuffix(".pf_filter") else { continue }
            let old = String(file.path.dropFirst("filter/".count).dropLast(".pf_filter".count))
            guard let plain = gunzip(file.bytes), let ordered = ordering(plain, listsAt: [1]), let packed = gzip(ordered),
                  let language = old.split(separator: "_").first else { return files }
            let new = language + "_" + Hashing.sha256Hex(ordered).prefix(old.count - language.count - 1)
            guard new.utf8.count == old.utf8.count else { return files }
            renamed[old] = String(new)
            out.append(("filter/\(new).pf_filter", packed))
        }
        var metaRenamed: [String: String] = [:]
        for file in files where file.path.hasPrefix("pagefind.") && file.path.hasSuffix(".pf_meta") {
            let old = String(file.path.dropFirst("pagefind.".count).dropLast(".pf_meta".count))
            guard var plain = gunzip(file.bytes), let language = old.split(separator: "_").first else { return files }
            for (from, to) in renamed { plain = replacing(Array(from.utf8), with: Array(to.utf8), in: plain) }
            guard let ordered = ordering(plain, listsAt: [3, 4]), let packed = gzip(ordered) else { return files }
            plain = ordered
            let new = language + "_" + Hashing.sha256Hex(plain).prefix(old.count - language.count - 1)
            metaRenamed[old] = String(new)
            out.append(("pagefind.\(new).pf_meta", packed))
        }
        for file in files {
            if file.path.hasPrefix("filter/") || (file.path.hasPrefix("pagefind.") && file.path.hasSuffix(".pf_meta")) { continue }
            if file.path == "pagefind-entry.json" {
                var bytes = file.bytes
                for (from, to) in metaRenamed { bytes = replacing(Array("\"\(from)\"".utf8), with: Array("\"\(to)\"".utf8), in: bytes) }
                out.append((file.path, bytes))
            } else {
                out.append(file)
            }
        }
        return out
    }

    /// Pagefind's `pagefind_dcd` + CBOR content with the lists at `positions` of its top-level
    /// array in byte order: lists whose order means nothing (a filter's values, which is
    /// `[name, [[value, [page, …]], …]]`; the metadata's filters and sorts, its items 3 and 4).
    static func ordering(_ data: [UInt8], listsAt positions: Set<Int>) -> [UInt8]? {
        guard data.starts(with: signature) else { return nil }
        var reader = CBORReader(bytes: data, at: signature.count)
        guard let top = reader.header(), top.major == 4 else { return nil }
        var out = Array(data[..<reader.at])
        for position in 0..<top.argument {
            let from = reader.at
            guard positions.contains(position) else {
                guard reader.skip() != nil else { return nil }
                out += data[from..<reader.at]
                continue
            }
            guard let list = reader.header(), list.major == 4 else { return nil }
            out += data[from..<reader.at]
            var entries: [ArraySlice<UInt8>] = []
            for _ in 0..<list.argument {
                let start = reader.at
                guard reader.skip() != nil else { return nil }
                entries.append(data[start..<reader.at])
            }
            entries.sort { $0.lexicographicallyPrecedes($1) }
            for entry in entries { out += entry }
        }
        guard reader.at == data.count else { return nil }
        return out
    }

    /// Just enough CBOR (RFC 8949) to step over items of definite length.
    struct CBORReader {
        let bytes: [UInt8]
        var at: Int

        mutating func header() -> (major: UInt8, argument: Int)? {
            guard at < bytes.count else { return nil }
            let first = bytes[at]
            at += 1
            let info = first & 31
            var argument = 0
            switch info {
            case 0..<24: argument = Int(info)
            case 24...27:
                let width = 1 << Int(info - 24)
                guard at + width <= bytes.count else { return nil }
                for byte in bytes[at..<(at + width)] { argument = argument << 8 | Int(byte) }
                guard argument >= 0 else { return nil }
                at += width
            default: return nil
            }
            return (first >> 5, argument)
        }

        /// Steps over one item (and what it holds).
        mutating func skip() -> Void? {
            guard let (major, argument) = header() else { return nil }
            switch major {
            case 0, 1, 7: return ()
            case 2, 3:
                guard argument <= bytes.count - at else { return nil }
                at += argument
                return ()
            case 4, 5:
                for _ in 0..<(major == 5 ? argument * 2 : argument) {
                    guard skip() != nil else { return nil }
                }
                return ()
            case 6: return skip()
            default: return nil
            }
        }
    }

    static func replacing(_ needle: [UInt8], with replacement: [UInt8], in data: [UInt8]) -> [UInt8] {
        guard !needle.isEmpty, data.count >= needle.count else { return data }
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        var i = 0
        while i < data.count {
            if i + needle.count <= data.count, data[i] == needle[0], data[i..<(i + needle.count)].elementsEqual(needle) {
                out += replacement
                i += needle.count
            } else {
                out.append(data[i])
                i += 1
            }
        }
        return out
    }

    static func gunzip(_ data: [UInt8]) -> [UInt8]? { zlib(data, plein_gunzip) }
    static func gzip(_ data: [UInt8]) -> [UInt8]? { zlib(data, plein_gzip) }

    private static func zlib(_ data: [UInt8],
                             _ call: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<Int>?) -> Int32) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = data.withUnsafeBufferPointer { call($0.baseAddress, $0.count, &out, &size) }
        guard status == 0, let out else { return nil }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
