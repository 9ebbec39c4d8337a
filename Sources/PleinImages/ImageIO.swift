internal import CVipsShim
import Foundation

/// What an image file says about itself, read without decoding its pixels.
public struct ImageInfo: Sendable, Codable, Hashable {
    /// Size after applying the EXIF orientation.
    public let width: Int
    public let height: Int
    public let orientation: Int
    /// `jpeg`, `png`, `webp`, `heif` (HEVC, as iPhones save) or `avif`.
    public let format: String
    /// EXIF `DateTimeOriginal` as written (`2026:08:16 21:05:00`), and its offset (`+02:00`).
    public let taken: String?
    public let offset: String?
    public let latitude: Double?
    public let longitude: Double?
    public let camera: String?
}

public struct ImageFailure: Error, Sendable, Equatable {
    public let reason: String
}

/// Reads and writes images through libvips (a small C shim; its calls are variadic).
public enum ImageIO {
    /// libvips is opened (and started) when first needed, not when plein starts (see the shim);
    /// nil when it started, else why not.
    private static let startFailure: String? = plein_vips_start() == 0 ? nil : String(cString: plein_vips_start_error())
    private static var started: Bool { startFailure == nil }
    private static var notStarted: ImageFailure { ImageFailure(reason: "libvips could not start: " + (startFailure ?? "")) }

    /// libvips' version, part of every cache key.
    public static var version: String {
        guard started, let text = plein_vips_version() else { return "unknown" }
        return String(cString: text)
    }

    public static func info(_ path: String) -> Result<ImageInfo, ImageFailure> {
        guard started else { return .failure(notStarted) }
        var raw = plein_image_info()
        var error = [CChar](repeating: 0, count: 512)
        guard plein_image_info_read(path, &raw, &error, error.count) == 0 else {
            return .failure(ImageFailure(reason: string(error)))
        }
        func text<T>(_ tuple: T) -> String? {
            let value = withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return value.isEmpty ? nil : value
        }
        return .success(ImageInfo(
            width: Int(raw.width), height: Int(raw.height), orientation: Int(raw.orientation),
            format: text(raw.format) ?? "", taken: text(raw.taken), offset: text(raw.offset),
            latitude: raw.has_gps != 0 ? raw.latitude : nil, longitude: raw.has_gps != 0 ? raw.longitude : nil,
            camera: text(raw.camera)?.trimmingCharacters(in: .whitespaces)))
    }

    public enum Format: String, Sendable, Codable, Hashable {
        case webp, jpeg, png, avif

        var code: Int32 {
            switch self {
            case .webp: return Int32(PLEIN_FORMAT_WEBP)
            case .jpeg: return Int32(PLEIN_FORMAT_JPEG)
            case .png: return Int32(PLEIN_FORMAT_PNG)
            case .avif: return Int32(PLEIN_FORMAT_AVIF)
            }
        }

        /// The full-size copy of a source: PNG and WebP stay as they are; everything else,
        /// HEIC above all (no browser but Safari shows it), becomes JPEG.
        public static func display(for source: String) -> Format {
            source == "png" ? .png : source == "webp" ? .webp : .jpeg
        }

        public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    }

    /// Writes an upright, metadata-free copy of `path` to `output`; `width` 0 keeps the size.
    /// Returns the size written.
    public static func write(
        _ path: String, to output: String, width: Int, square: Bool, format: Format, quality: Int
    ) -> Result<(width: Int, height: Int), ImageFailure> {
        guard started else { return .failure(notStarted) }
        var w: Int32 = 0, h: Int32 = 0
        var error = [CChar](repeating: 0, count: 512)
        guard plein_image_write(path, output, Int32(width), square ? 1 : 0, format.code, Int32(quality), &w, &h, &error, error.count) == 0 else {
            return .failure(ImageFailure(reason: string(error)))
        }
        return .success((Int(w), Int(h)))
    }

    /// Writes upright, metadata-free copies of `path` at several widths (none 0, none square), each
    /// to its output in its format: the widest read from the file once, the others made from it.
    /// Returns the sizes written, in the order given.
    public static func write(
        _ path: String, widths copies: [(output: String, width: Int, format: Format, quality: Int)]
    ) -> Result<[(width: Int, height: Int)], ImageFailure> {
        guard started else { return .failure(notStarted) }
        let count = copies.count
        var widths = copies.map { Int32($0.width) }, formats = copies.map(\.format.code), qualities = copies.map { Int32($0.quality) }
        var w = [Int32](repeating: 0, count: count), h = [Int32](repeating: 0, count: count)
        var error = [CChar](repeating: 0, count: 512)
        let outputs = copies.map { strdup($0.output) }
        defer { outputs.forEach { free($0) } }
        let failed = outputs.map { UnsafePointer($0) }.withUnsafeBufferPointer { outs in
            plein_image_write_widths(path, Int32(count), &widths, &formats, &qualities, outs.baseAddress, &w, &h, &error, error.count)
        }
        guard failed == 0 else { return .failure(ImageFailure(reason: string(error))) }
        return .success((0..<count).map { (Int(w[$0]), Int(h[$0])) })
    }

    private static func string(_ buffer: [CChar]) -> String {
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "libvips failed" : text
    }
}
