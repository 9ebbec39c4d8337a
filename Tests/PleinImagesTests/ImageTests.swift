import Foundation
import PleinImages
import Testing

@Suite(.serialized) struct ImageTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    func fixture(_ name: String) -> String { Self.fixtures + "/" + name }

    func withCache(_ body: (ImageCache, String) throws -> Void) rethrows {
        let root = NSTemporaryDirectory() + "plein-images-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        try body(ImageCache(root: root), root)
    }

    @Test func readsOrientationCaptureTimeGPSAndCamera() throws {
        let rotated = try ImageIO.info(fixture("orientation-6.jpg")).get()
        #expect(rotated.orientation == 6)
        #expect((rotated.width, rotated.height) == (300, 400), "dimensions are given after orientation")
        #expect(rotated.taken == "2026:08:30 14:05:33")
        #expect(rotated.offset == "+02:00")

        let located = try ImageIO.info(fixture("gps.jpg")).get()
        #expect(abs((located.latitude ?? 0) - 52.36) < 1e-9)
        #expect(abs((located.longitude ?? 0) - 4.92) < 1e-9)
        #expect(located.camera == "Fujifilm X-T30")
        #expect(located.offset == nil)
    }

    @Test func thumbnailsAreUprightAndCarryNoMetadata() throws {
        try withCache { cache, _ in
            let processor = ImageProcessor(cache: cache, maxPixels: 100_000_000)
            let result = try processor.process(ImageJob(source: fixture("orientation-6.jpg"), path: "a/r.jpg", kind: .photo)).get()
            #expect(!result.variants.isEmpty)
            for made in result.variants {
                #expect(made.height > made.width, "\(made.spec.key) is portrait")
                let info = try ImageIO.info(made.file).get()
                #expect(info.orientation == 1)
                #expect(info.taken == nil)
            }
            let gps = try processor.process(ImageJob(source: fixture("gps.jpg"), path: "a/g.jpg", kind: .photo)).get()
            for made in gps.variants {
                let info = try ImageIO.info(made.file).get()
                #expect(info.latitude == nil && info.longitude == nil && info.camera == nil && info.taken == nil, "\(made.spec.key)")
            }
        }
    }

    @Test func photosGetWebPWidthsAPreviewAndADisplayCopyNeverUpscaled() throws {
        try withCache { cache, _ in
            let processor = ImageProcessor(cache: cache, maxPixels: 100_000_000)
            let big = try processor.process(ImageJob(source: fixture("gps.jpg"), path: "g.jpg", kind: .photo)).get()
            #expect(big.variants.filter { $0.spec.role == .thumbnail }.map(\.width) == [320, 640])
            #expect(big.variants.first { $0.spec.role == .display }.map { ($0.width, $0.height) }! == (640, 480))
            #expect(big.variants.first { $0.spec.role == .preview }?.spec.format == .jpeg)
            let small = try processor.process(ImageJob(source: fixture("small.jpg"), path: "s.jpg", kind: .photo)).get()
            #expect(small.variants.allSatisfy { $0.width <= 200 })
        }
    }

    @Test func avatarsAreSquare() throws {
        try withCache { cache, _ in
            let processor = ImageProcessor(cache: cache, maxPixels: 100_000_000)
            let avatar = try processor.process(ImageJob(source: fixture("gps.jpg"), path: "users/a.jpg", kind: .avatar)).get()
            #expect(avatar.variants.map(\.width) == [64, 128, 256, 256])
            #expect(avatar.variants.allSatisfy { $0.width == $0.height })
        }
    }

    @Test func aSecondRunMakesNothingAndPruningKeepsWhatIsUsed() throws {
        try withCache { cache, root in
            let job = ImageJob(source: fixture("gps.jpg"), path: "g.jpg", kind: .photo)
            let first = try ImageProcessor(cache: cache, maxPixels: 100_000_000).process(job).get()
            #expect(first.made > 0 && first.reused == 0)
            _ = cache.finish()

            let again = ImageCache(root: root)
            let second = try ImageProcessor(cache: again, maxPixels: 100_000_000).process(job).get()
            #expect(second.made == 0)
            #expect(second.reused == first.made)
            let kept = again.finish()
            #expect(kept.pruned == 0)

            // A build that no longer uses the photo prunes all of it.
            let third = ImageCache(root: root)
            #expect(third.finish().pruned == first.made + 1)
        }
    }

    @Test func phonePhotosAreReadLikeJPEGs() throws {
        let heic = try ImageIO.info(fixture("phone.heic")).get()
        #expect(heic.format == "heif")
        #expect((heic.width, heic.height) == (640, 480))
        #expect(abs((heic.latitude ?? 0) - 52.36) < 1e-9 && abs((heic.longitude ?? 0) - 4.92) < 1e-9)
        #expect(heic.camera == "Fujifilm X-T30")
        let avif = try ImageIO.info(fixture("phone.avif")).get()
        #expect(avif.format == "avif")
        #expect(avif.latitude != nil)
    }

    @Test func phonePhotosPublishAJPEGOriginalAndAVIFBesideWebPWithoutMetadata() throws {
        try withCache { cache, _ in
            let processor = ImageProcessor(cache: cache, maxPixels: 100_000_000)
            for name in ["phone.heic", "phone.avif", "gps.jpg"] {
                let result = try processor.process(ImageJob(source: fixture(name), path: "a/" + name, kind: .photo)).get()
                // The closure stays outside `#require`: Swift 6.3 gave a closure inside the macro
                // and the next one in this function the same symbol, so `modern` matched `.display`.
                let found = result.variants.first { $0.spec.role == .display }
                let display = try #require(found)
                #expect(display.spec.format == .jpeg, "\(name): browsers cannot show HEIC, so the original link serves a JPEG")
                #expect((display.width, display.height) == (640, 480))
                let webp = result.variants.filter { $0.spec.role == .thumbnail }
                let modern = result.variants.filter { $0.spec.role == .modern }
                #expect(modern.map(\.width) == webp.map(\.width), "\(name): AVIF at every WebP width")
                #expect(modern.allSatisfy { $0.spec.format == .avif && $0.file.hasSuffix(".avif") })
                for made in result.variants {
                    let info = try ImageIO.info(made.file).get()
                    #expect(info.latitude == nil && info.camera == nil && info.taken == nil, "\(name) → \(made.spec.key) carries metadata")
                    #expect(info.format == (made.spec.format == .avif ? "avif" : made.spec.format.rawValue))
                }
            }
            let off = ImageProcessor(cache: cache, maxPixels: 100_000_000, avif: false)
            let plain = try off.process(ImageJob(source: fixture("phone.heic"), path: "b/phone.heic", kind: .photo)).get()
            #expect(!plain.variants.contains { $0.spec.role == .modern }, "images.avif: false makes no AVIF")
        }
    }

    @Test func badImagesAreReportedNotCrashed() throws {
        try withCache { cache, _ in
            let processor = ImageProcessor(cache: cache, maxPixels: 50_000_000)
            guard case .failure(.corrupt) = processor.process(ImageJob(source: fixture("truncated.jpg"), path: "t.jpg", kind: .photo)) else {
                Issue.record("a truncated JPEG was accepted")
                return
            }
            guard case .failure(.tooManyPixels(40000, 40000, 50_000_000)) = processor.process(ImageJob(source: fixture("bomb.png"), path: "b.png", kind: .photo)) else {
                Issue.record("a 1.6 gigapixel image was not refused")
                return
            }
            let heic = try Data(contentsOf: URL(fileURLWithPath: fixture("phone.heic")))
            let cut = NSTemporaryDirectory() + "plein-cut-\(UUID().uuidString).heic"
            defer { unlink(cut) }
            try heic.prefix(heic.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
            guard case .failure = processor.process(ImageJob(source: cut, path: "cut.heic", kind: .photo)) else {
                Issue.record("a truncated HEIC was accepted")
                return
            }
            guard case .failure = processor.process(ImageJob(source: Self.fixtures + "/../ImageTests.swift", path: "x.jpg", kind: .photo)) else {
                Issue.record("a text file was accepted")
                return
            }
        }
    }
}
