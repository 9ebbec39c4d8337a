import PleinMarkdown
import Foundation
/// The published forms of the content's images, by content path (`users/anna.jpg`).
/// Filled by the build's image stage; pages only read it.
public struct ImageCatalog: Sendable {
    public var images: [String: PublishedImage]
    /// Album videos by content path; the image of the same path is the video's poster.
    public var videos: [String: PublishedVideo]

    public init(images: [String: PublishedImage] = [:], videos: [String: PublishedVideo] = [:]) {
        self.images = images
        self.videos = videos
    }

    public subscript(path: String) -> PublishedImage? { images[path] }

    /// The published item of a path, if any.
    func item(_ path: String) -> PublishedItem? {
        let image = images[path], video = videos[path]
        return image == nil && video == nil ? nil : PublishedItem(image: image, video: video)
    }

    /// Every published item by path: what a page showing that path depends on.
    public var items: [String: PublishedItem] {
        var items: [String: PublishedItem] = [:]
        for (path, image) in images { items[path] = PublishedItem(image: image, video: videos[path]) }
        for (path, video) in videos where images[path] == nil { items[path] = PublishedItem(image: nil, video: video) }
        return items
    }
}

/// A photo, or a video with its poster: one `Dependency.image` of the pages that show it.
public struct PublishedItem: Sendable, Hashable, Codable {
    public let image: PublishedImage?
    public let video: PublishedVideo?
}

/// One image as the site shows it: sized variants for `srcset`, a display copy and a preview.
public struct PublishedImage: Sendable, Hashable, Codable {
    public struct Variant: Sendable, Hashable, Codable {
        /// Site-relative path of the file.
        public let path: String
        public let width: Int
        public let height: Int

        public init(path: String, width: Int, height: Int) {
            self.path = path
            self.width = width
            self.height = height
        }
    }

    /// Thumbnails, narrowest first.
    public let variants: [Variant]
    /// The same widths in AVIF (empty when `images.avif` is off, and for avatars).
    public let avif: [Variant]
    /// The full-size copy without metadata.
    public let display: Variant
    /// A JPEG for link previews (`og:image`).
    public let preview: Variant?
    /// Capture time, GPS and camera, when the image carries them.
    public let info: PhotoInfo
    /// For an album video: the video, of which this image is the poster frame.
    public let video: PublishedVideo?

    public init(
        variants: [Variant], avif: [Variant] = [], display: Variant, preview: Variant?, info: PhotoInfo = PhotoInfo(),
        video: PublishedVideo? = nil
    ) {
        self.variants = variants
        self.avif = avif
        self.video = video
        self.display = display
        self.preview = preview
        self.info = info
    }
}

/// An album video as published: its web copy (H.264/AAC MP4, no metadata), or, when ffmpeg
/// was not there to make one, nothing but the item's place in the album.
public struct PublishedVideo: Sendable, Hashable, Codable {
    /// Site-relative path of the MP4; nil when it could not be made.
    public let path: String?
    public let width: Int
    public let height: Int
    /// Seconds.
    public let duration: Double

    public init(path: String?, width: Int, height: Int, duration: Double) {
        self.path = path
        self.width = width
        self.height = height
        self.duration = duration
    }

    /// "0:07", "12:30", "1:02:03".
    public var durationText: String {
        let total = max(0, Int(duration.rounded()))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }

    /// ISO 8601 duration for `<time datetime>`: "PT7S", "PT12M30S".
    public var isoDuration: String {
        let total = max(0, Int(duration.rounded()))
        var text = "PT"
        if total >= 3600 { text += "\(total / 3600)H" }
        if total >= 60 { text += "\(total / 60 % 60)M" }
        return text + "\(total % 60)S"
    }
}

/// What EXIF says about a photo.
public struct PhotoInfo: Sendable, Hashable, Codable {
    /// `DateTimeOriginal` as seconds since the epoch, and whether an offset was recorded.
    public var takenAt: Int64?
    public var takenAtHasOffset = false
    public var latitude: Double?
    public var longitude: Double?
    public var camera: String?

    public init(takenAt: Int64? = nil, takenAtHasOffset: Bool = false, latitude: Double? = nil, longitude: Double? = nil, camera: String? = nil) {
        self.takenAt = takenAt
        self.takenAtHasOffset = takenAtHasOffset
        self.latitude = latitude
        self.longitude = longitude
        self.camera = camera
    }
}
