import Foundation

/// One derived image: what to make from a source.
public struct VariantSpec: Sendable, Hashable, Codable {
    public enum Role: String, Sendable, Codable, Hashable {
        /// A `srcset` width.
        case thumbnail
        /// A `srcset` width in AVIF, offered before the WebP thumbnails.
        case modern
        /// The JPEG for link previews.
        case preview
        /// The full-size copy without metadata.
        case display
    }

    public let role: Role
    /// 0: the original size.
    public let width: Int
    public let square: Bool
    public let format: ImageIO.Format
    public let quality: Int

    /// Bumped whenever the way variants are made changes, so cached files are made again
    /// (3: metadata removed before saving, and WebP files rewritten without EXIF and XMP
    /// chunks: libvips 8.14.1's webpsave ignores "strip"; 4: a photo's narrower copies made from
    /// its widest, read from the file once, `ImageIO.write(_:widths:)`).
    public static let revision = 4

    /// The AV1 encoder's effort (0–9) for AVIF variants, set in the C shim.
    public static let avifEffort = 1

    /// Names the operation in cache keys and file names: change any parameter, get a new file.
    public var key: String {
        let encoder = format == .avif ? "-e\(Self.avifEffort)" : ""
        return "\(role.rawValue)-\(width)\(square ? "sq" : "")-\(format.rawValue)\(encoder)-q\(quality)-r\(Self.revision)"
    }

    /// Photos: WebP at 320, 640 and 1280 px (never wider than the original), the same widths
    /// in AVIF unless turned off, a 1200 px JPEG preview and a full-size copy (JPEG for HEIC
    /// and AVIF sources, which not every browser shows).
    public static func photo(original: ImageInfo, format: String, avif: Bool = true) -> [VariantSpec] {
        var specs: [VariantSpec] = []
        var widths = [320, 640, 1280].filter { $0 < original.width }
        if widths.count < 3 { widths.append(original.width) }
        for width in widths {
            specs.append(VariantSpec(role: .thumbnail, width: width, square: false, format: .webp, quality: 80))
        }
        if avif {
            for width in widths {
                specs.append(VariantSpec(role: .modern, width: width, square: false, format: .avif, quality: 50))
            }
        }
        specs.append(VariantSpec(role: .preview, width: min(1200, original.width), square: false, format: .jpeg, quality: 82))
        specs.append(VariantSpec(role: .display, width: 0, square: false, format: .display(for: format), quality: 88))
        return specs
    }

    /// Avatars: square crops around the most interesting part at 64, 128 and 256 px (the
    /// largest is also the one shown on its own), and a 256 px JPEG for link previews.
    public static func avatar() -> [VariantSpec] {
        [64, 128, 256].map { VariantSpec(role: .thumbnail, width: $0, square: true, format: .webp, quality: 82) }
            + [VariantSpec(role: .preview, width: 256, square: true, format: .jpeg, quality: 85)]
    }

    /// Photos of report bundles: a full-size copy without metadata, under the name the report's
    /// text links (so the link works as written), and the narrower copies album photos have for
    /// `srcset` (WebP at 320, 640 and 1280 px narrower than the original, the same in AVIF unless
    /// turned off): a phone's 4032 px photo is not what a phone downloads to read the report.
    public static func attachment(original: ImageInfo, format: String, avif: Bool = true) -> [VariantSpec] {
        let widths = [320, 640, 1280].filter { $0 < original.width }
        return widths.map { VariantSpec(role: .thumbnail, width: $0, square: false, format: .webp, quality: 80) }
            + (avif ? widths.map { VariantSpec(role: .modern, width: $0, square: false, format: .avif, quality: 50) } : [])
            + [VariantSpec(role: .display, width: 0, square: false, format: .display(for: format), quality: 88)]
    }
}
