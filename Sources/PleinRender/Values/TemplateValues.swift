import PleinCore
import PleinModel
import PleinMustache

/// Typed values for a template: each page, card and block builds one of these from the model,
/// and `template` turns it into what the engine reads. An `Encodable` type gets `template` from
/// its fields (`TemplateEncoder`: a field is named once, in the type); a type whose template is
/// not its fields writes it by hand (`HandWrittenTemplate`).
/// Text stays text (escaped wherever it is written); only values plein made as HTML are `.html`.
protocol TemplateValues {
    var template: TemplateContext { get }
}

extension TemplateValues where Self: Encodable {
    var template: TemplateContext { TemplateEncoder.context(self) }
}

/// Template values whose `template` is written by hand, which may still be the field of an
/// `Encodable` one: `TemplateEncoder` takes their `template` as it is (see its `encode(to:)`).
protocol HandWrittenTemplate: TemplateValues, Encodable {}

extension TemplateValue {
    static func of(_ values: some TemplateValues) -> TemplateValue { .object(values.template) }
    static func of(_ values: (some TemplateValues)?) -> TemplateValue? { values.map { .object($0.template) } }
    static func list(_ values: [some TemplateValues]) -> TemplateValue { .list(values.map(\.template)) }
}

/// A `<time>`: ISO 8601 in the site's zone (a date alone for a date), and the text to show.
struct TimeValue: TemplateValues, Encodable {
    let iso: String
    let text: String
    let dateOnly: Bool
}

/// An `<img>` with its sizes: the smallest variant as `src`, all of them as `srcset`; with
/// AVIF copies, the `srcset` of a `<source type="image/avif">` before it in a `<picture>`.
struct ImageValue: TemplateValues, Encodable {
    let src: String
    let width: Int
    let height: Int
    let alt: String
    let sizes: String
    let full: String
    let srcset: String?
    let avif: String?

    init(_ image: PublishedImage, alt: String, sizes: String, routes: Routes) {
        let small = image.variants.first ?? image.display
        src = routes.url(small.path)
        width = small.width
        height = small.height
        self.alt = alt
        self.sizes = sizes
        full = routes.url(image.display.path)
        srcset = image.variants.count > 1 ? Self.srcset(image.variants, routes) : nil
        avif = image.avif.isEmpty ? nil : Self.srcset(image.avif, routes)
    }

    private static func srcset(_ variants: [PublishedImage.Variant], _ routes: Routes) -> String {
        variants.map { "\(routes.url($0.path)) \($0.width)w" }.joined(separator: ", ")
    }
}

/// An album video: its web copy with the size to reserve, the poster frame (absent when ffmpeg
/// was not there to make one: the page then offers the file as a download) and its length.
struct VideoValue: HandWrittenTemplate {
    let src: String
    let poster: String?
    let width: Int
    let height: Int
    let duration: (iso: String, text: String)?

    init(_ video: PublishedVideo, poster: PublishedImage?, routes: Routes) {
        src = video.path.map(routes.url) ?? ""
        self.poster = poster.map { routes.url($0.display.path) }
        width = video.width
        height = video.height
        duration = video.duration > 0 ? (video.isoDuration, video.durationText) : nil
    }

    var template: TemplateContext {
        var c: TemplateContext = ["src": .text(src), "width": .number(width), "height": .number(height)]
        c["poster"] = .text(poster)
        if let duration { c["duration"] = .object(["iso": .text(duration.iso), "text": .text(duration.text)]) }
        return c
    }
}

/// A member as a link with their avatar (or initials; always on a page to be sealed).
struct MemberChip: HandWrittenTemplate {
    struct Known {
        let name: String
        /// Nil when the site has no member pages.
        let url: String?
        let initials: String
        let avatar: ImageValue?
    }

    let id: String
    /// Nil for a reference to no member (shown as written).
    let known: Known?

    init(_ id: String, in renderer: some Rendering) {
        self.id = id
        known = renderer.view.card(id).map { m in
            Known(
                name: m.name, url: renderer.site.has(.members) ? renderer.routes.url(renderer.routes.member(id)) : nil,
                initials: TextCut.initials(m.name),
                avatar: renderer.inputs.sealed ? nil : m.avatar.flatMap { renderer.view.image($0) }.map { renderer.image($0, alt: "") })
        }
    }

    var name: String { known?.name ?? id }

    var template: TemplateContext {
        guard let known else { return ["name": .text(id)] }
        var c: TemplateContext = ["id": .text(id), "name": .text(known.name), "initials": .text(known.initials)]
        if let url = known.url { c["url"] = .text(url) }
        if let avatar = known.avatar { c["avatar"] = .of(avatar) }
        return c
    }
}
