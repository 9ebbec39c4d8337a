public import PleinCore

/// Report files are named `<YYYY-MM-DD>-<slug>`.
enum ReportName {
    static func date(_ name: String) -> String? {
        guard name.count > 11 else { return nil }
        let date = String(name.prefix(10))
        guard name.dropFirst(10).first == "-", case .success(.date) = ISO8601.parse(date) else { return nil }
        return date
    }

    static func problem(_ name: String, bundle: Bool) -> Problem? {
        let shown = bundle ? name + "/" : name + ".md"
        let expected = bundle ? "<YYYY-MM-DD>-<slug>/ (a bundle folder)" : "<YYYY-MM-DD>-<slug>.md"
        guard date(name) != nil else { return .invalidFileName(shown, expected: expected) }
        guard Slug.isValid(String(name.dropFirst(11))) else {
            return .invalidSlug(name, suggestion: String(name.prefix(11)) + Slug.make(String(name.dropFirst(11))))
        }
        return nil
    }
}

/// Tells JPEG, PNG, WebP, HEIF and AVIF apart by their first bytes.
public enum ImageSniffer {
    /// How many bytes `kind(of:)` looks at: enough for a HEIF `ftyp` box with its brands.
    public static let headLength = 64

    public static func kind(of head: [UInt8]) -> ImageFile.Kind? {
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return heifKind(head)
    }

    /// An ISO media file starts with an `ftyp` box: its size, "ftyp", a major brand, a minor
    /// version and compatible brands. HEIF images name `mif1`/`heic`…, AVIF `avif`/`avis`.
    static func heifKind(_ head: [UInt8]) -> ImageFile.Kind? {
        guard head.count >= 16, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        guard size >= 16 else { return nil }
        let end = min(size, head.count)
        var brands = [String(decoding: head[8..<12], as: UTF8.self)]
        var at = 16
        while at + 4 <= end {
            brands.append(String(decoding: head[at..<at + 4], as: UTF8.self))
            at += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heif: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "mif2"]
        return brands.contains(where: heif.contains) ? .heif : nil
    }
}
