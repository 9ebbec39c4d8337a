/// The files a report publishes as they are (PRODUCT.md, "A report"): a fixed list of types that a
/// browser shows as data and never runs as part of the site. HTML, SVG, XML, scripts and anything
/// not on the list stay out, whatever their bytes: published on the site's own origin, they could
/// replace a page or run a script with the site's name on it.
///
/// Web images in a report (`.jpg`, `.png`, `.webp`) are not here: they are decoded and encoded
/// again like every photo (see `FileRole.webImageExtensions`).
public struct AttachmentType: Sendable, Hashable {
    /// The media type a server gives the file (with `X-Content-Type-Options: nosniff`).
    public let mediaType: String
    /// In words, for messages: "a PDF document".
    public let name: String
    /// What the file's first bytes must hold; nil for text, which has no signature.
    let signature: (@Sendable ([UInt8]) -> Bool)?

    public static func == (a: AttachmentType, b: AttachmentType) -> Bool { a.mediaType == b.mediaType }
    public func hash(into hasher: inout Hasher) { hasher.combine(mediaType) }

    /// What plein writes into a report's folder itself: its page, its reply feed and that feed's
    /// JSON twin (`Routes.report`, `reportFeed`, `jsonFeed`; a test keeps the two lists the same).
    /// No file of the report may take one of these places, whatever its type.
    public static let reportOwnFiles: Set<String> = ["index.html", "feed.xml", "feed.json"]

    /// How many first bytes `matches` needs.
    public static let headLength = 1024

    /// The type of a file name's extension, or nil when a report does not publish it.
    public static func of(_ fileName: String) -> AttachmentType? {
        byExtension[FileName.split(fileName).ext.lowercased()]
    }

    /// Plain text (`.txt`, `.csv`): published as written, so read by `check` like every text.
    public var isText: Bool { mediaType.hasPrefix("text/") }

    /// Whether a file's first bytes are what its type says (a "PDF" that is really HTML is not).
    public func matches(_ head: [UInt8]) -> Bool {
        signature?(head) ?? true
    }

    /// The list in words, for messages (a test keeps it the same as `byExtension`).
    public static let listed = "images (.jpg, .png, .webp, .gif), PDF (.pdf), plain text (.txt, .csv) and sound (.mp3, .m4a, .ogg, .oga, .opus, .wav, .flac)"
    /// Every extension on the list.
    public static var extensions: Set<String> { Set(byExtension.keys) }

    private static func starts(_ head: [UInt8], _ text: String, at offset: Int = 0) -> Bool {
        let bytes = Array(text.utf8)
        return head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
    }

    static let pdf = AttachmentType(mediaType: "application/pdf", name: "a PDF document") { head in
        // The header may follow a few bytes of junk (PDF 1.7, 7.5.2); readers look in the first KiB.
        let marker = Array("%PDF-".utf8)
        return head.count >= marker.count && (0...(head.count - marker.count)).contains { Array(head[$0..<$0 + marker.count]) == marker }
    }
    static let text = AttachmentType(mediaType: "text/plain; charset=utf-8", name: "plain text", signature: nil)
    static let csv = AttachmentType(mediaType: "text/csv; charset=utf-8", name: "a CSV table", signature: nil)
    static let gif = AttachmentType(mediaType: "image/gif", name: "a GIF image") { starts($0, "GIF87a") || starts($0, "GIF89a") }
    static let mp3 = AttachmentType(mediaType: "audio/mpeg", name: "MP3 audio") { head in
        starts(head, "ID3") || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0)
    }
    static let m4a = AttachmentType(mediaType: "audio/mp4", name: "M4A audio") { starts($0, "ftyp", at: 4) }
    static let ogg = AttachmentType(mediaType: "audio/ogg", name: "Ogg audio") { starts($0, "OggS") }
    static let wav = AttachmentType(mediaType: "audio/wav", name: "WAV audio") { starts($0, "RIFF") && starts($0, "WAVE", at: 8) }
    static let flac = AttachmentType(mediaType: "audio/flac", name: "FLAC audio") { starts($0, "fLaC") }

    private static let byExtension: [String: AttachmentType] = [
        "pdf": pdf, "txt": text, "csv": csv, "gif": gif,
        "mp3": mp3, "m4a": m4a, "ogg": ogg, "oga": ogg, "opus": ogg, "wav": wav, "flac": flac,
    ]
}
