import Foundation
import PleinCore

/// One source image to publish: where it is and what to make of it.
public struct ImageJob: Sendable {
    public enum Kind: Sendable, Hashable { case photo, avatar, attachment }
    /// Path on disk.
    public let source: String
    /// Content-relative path, for messages and names.
    public let path: String
    public let kind: Kind

    public init(source: String, path: String, kind: Kind) {
        self.source = source
        self.path = path
        self.kind = kind
    }
}

/// The outcome of one job: the header and the variants on disk, or why it failed.
public struct ProcessedImage: Sendable {
    public struct Made: Sendable {
        public let spec: VariantSpec
        /// The file in the cache.
        public let file: String
        public let width: Int
        public let height: Int
    }

    public let job: ImageJob
    public let hash: String
    public let info: ImageInfo
    public let variants: [Made]
    public let made: Int
    public let reused: Int
}

public enum ImageProblem: Error, Sendable, Equatable {
    case unreadable(String)
    case corrupt(String)
    case tooManyPixels(width: Int, height: Int, limit: Int)
}

/// Reads headers and makes variants, reusing the cache.
public struct ImageProcessor: Sendable {
    public let cache: ImageCache
    public let maxPixels: Int
    /// Whether photos also get AVIF thumbnails.
    public let avif: Bool

    public init(cache: ImageCache, maxPixels: Int, avif: Bool = true) {
        self.cache = cache
        self.maxPixels = maxPixels
        self.avif = avif
    }

    /// The header and EXIF of a source (from the cache when the bytes are unchanged).
    public func inspect(_ job: ImageJob) -> Result<(hash: String, info: ImageInfo), ImageProblem> {
        guard let hash = cache.hash(of: job.source) else { return .failure(.unreadable("cannot read the file")) }
        if let manifest = cache.manifest(hash) { return .success((hash, manifest.info)) }
        switch ImageIO.info(job.source) {
        case .failure(let failure):
            return .failure(.corrupt(failure.reason))
        case .success(let info):
            cache.store(ImageCache.Manifest(info: info, variants: [:]), for: hash)
            return .success((hash, info))
        }
    }

    /// Makes (or finds) every variant the job's kind calls for.
    public func process(_ job: ImageJob) -> Result<ProcessedImage, ImageProblem> {
        let inspected: (hash: String, info: ImageInfo)
        switch inspect(job) {
        case .failure(let problem): return .failure(problem)
        case .success(let value): inspected = value
        }
        let (hash, info) = inspected
        guard info.width * info.height <= maxPixels else {
            return .failure(.tooManyPixels(width: info.width, height: info.height, limit: maxPixels))
        }
        let specs: [VariantSpec]
        switch job.kind {
        case .photo: specs = VariantSpec.photo(original: info, format: info.format, avif: avif)
        case .avatar: specs = VariantSpec.avatar()
        case .attachment: specs = VariantSpec.attachment(original: info, format: info.format, avif: avif)
        }
        var manifest = cache.manifest(hash) ?? ImageCache.Manifest(info: info, variants: [:])
        var found: [VariantSpec: ProcessedImage.Made] = [:]
        var missing: [(spec: VariantSpec, file: String)] = []
        for spec in specs {
            let file = cache.variantPath(hash, spec)
            cache.markUsed(file)
            if let size = manifest.variants[spec.key], size.count == 2, FileManager.default.fileExists(atPath: file) {
                found[spec] = .init(spec: spec, file: file, width: size[0], height: size[1])
            } else {
                missing.append((spec, file))
            }
        }
        let reused = found.count
        // The variants to make: the downsized ones from one read of the file (each from the
        // widest; the AVIF ones, slow to encode, from one of their own), each other on its own;
        // on every core the build leaves free (one image alone, as after an edit, takes both;
        // among many, each image's are made one after the other).
        var units: [[(spec: VariantSpec, file: String)]] = []
        for avif in [false, true] {
            let downsized = missing.filter { $0.spec.width > 0 && !$0.spec.square && ($0.spec.format == .avif) == avif }
            if downsized.count > 1 { units.append(downsized) }
        }
        let shared = Set(units.joined().map(\.spec))
        units += missing.filter { !shared.contains($0.spec) }.map { [$0] }
        let outcomes = parallelMap(units) { unit -> [Result<ProcessedImage.Made, ImageProblem>] in
            let temporaries = unit.map { cache.temporary(for: $0.file) }
            let written: Result<[(width: Int, height: Int)], ImageFailure> = if unit.count == 1 {
                ImageIO.write(job.source, to: temporaries[0], width: unit[0].spec.width, square: unit[0].spec.square, format: unit[0].spec.format,
                              quality: unit[0].spec.quality).map { [$0] }
            } else {
                ImageIO.write(job.source, widths: zip(unit, temporaries).map { ($1, $0.spec.width, $0.spec.format, $0.spec.quality) })
            }
            switch written {
            case .failure(let failure):
                temporaries.forEach { unlink($0) }
                return [.failure(.corrupt(failure.reason))]
            case .success(let sizes):
                return zip(zip(unit, temporaries), sizes).map { made, size in
                    guard rename(made.1, made.0.file) == 0 else {
                        unlink(made.1)
                        return .failure(.unreadable("cannot write to the image cache"))
                    }
                    return .success(.init(spec: made.0.spec, file: made.0.file, width: size.width, height: size.height))
                }
            }
        }.joined()
        for result in outcomes {
            switch result {
            case .failure(let problem): return .failure(problem)
            case .success(let variant):
                manifest.variants[variant.spec.key] = [variant.width, variant.height]
                found[variant.spec] = variant
            }
        }
        let results = specs.map { found[$0]! }
        let made = missing.count
        if made > 0 { cache.store(manifest, for: hash) }
        return .success(ProcessedImage(job: job, hash: hash, info: info, variants: results, made: made, reused: reused))
    }
}
