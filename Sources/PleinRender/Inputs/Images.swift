import PleinMarkdown
import Foundation
/// The published forms of the content's images, by content path (`users/anna.jpg`).
/// Filled by the build's image stage; pages only read it.
public struct ImageCatalog: Sendable {
    public var images: [String: PublishedImage]

    public init(images: [String: PublishedImage] = [:]) {
        self.images = images
    }

    public subscript(path: String) -> PublishedImage? { images[path] }
}

/// One image as the site shows it: sized variants for `srcset`, a display copy and a preview.
public struct PublishedImage: Sendable, Hashable, Encodable {
    public struct Variant: Sendable, Hashable, Encodable {
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

    public init(variants: [Variant], avif: [Variant] = [], display: Variant, preview: Variant?, info: PhotoInfo = PhotoInfo()) {
        self.variants = variants
        self.avif = avif
        self.display = display
        self.preview = preview
        self.info = info
    }
}

/// What EXIF says about a photo.
public struct PhotoInfo: Sendable, Hashable, Encodable {
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
