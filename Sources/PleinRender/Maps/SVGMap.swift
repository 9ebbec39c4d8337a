import PleinText
import PleinModel
import Foundation
import PleinCore

/// Draws map features as an inline SVG (Web Mercator, no tiles), so maps show without
/// JavaScript and offline. Output depends only on the features: no randomness, no clock.
struct SVGMap {
    let width = 640.0
    let height = 360.0
    let padding = 28.0
    /// The smallest stretch of ground shown, so a single point is not drawn at street level.
    let minimumSpanMetres = 700.0
    static let earthCircumference = 40_075_016.686

    let id: String
    let title: String
    let description: String
    let features: [MapFeature]
    /// Markers besides the features' points (the reports' markers, as kept: `MapFeatures.drawn`).
    var markers: [DrawnMarker] = []
    /// The feature drawn larger (the report of a report page), by path.
    let highlight: String?
    /// Turns a site-relative path into a link.
    let link: (String) -> String
    let strings: Strings

    func render() -> TrustedHTML? {
        var points: [Coordinate] = markers.map(\.at)
        for feature in features {
            switch feature.shape {
            case .point(let c): points.append(c)
            case .polygon(let ring): points += ring
            }
        }
        guard let bounds = Geo.Bounds(points) else { return nil }
        let centerLat = (bounds.minLat + bounds.maxLat) / 2
        let metresPerUnit = Self.earthCircumference * cos(centerLat * .pi / 180)
        let nw = Geo.mercator(Coordinate(lat: bounds.maxLat, lon: bounds.minLon))
        let se = Geo.mercator(Coordinate(lat: bounds.minLat, lon: bounds.maxLon))
        let minimumSpan = minimumSpanMetres / metresPerUnit
        let spanX = max(se.x - nw.x, minimumSpan)
        let spanY = max(se.y - nw.y, minimumSpan * height / width)
        let scale = min((width - 2 * padding) / spanX, (height - 2 * padding) / spanY)
        let cx = (nw.x + se.x) / 2, cy = (nw.y + se.y) / 2
        func project(_ c: Coordinate) -> (Double, Double) {
            let m = Geo.mercator(c)
            return ((m.x - cx) * scale + width / 2, (m.y - cy) * scale + height / 2)
        }

        var svg = MarkupWriter.svg(
            class: "map-svg", id: id, width: width, height: height, title: title, description: description,
            labelling: [.init("aria-labelledby", "\(id)-title"), .init("aria-describedby", "\(id)-desc")], capacity: 4096 + 256 * features.count)
        svg.empty("rect", .init("class", "map-bg"), .init("width", n(width)), .init("height", n(height)))
        for feature in features {
            guard case .polygon(let ring) = feature.shape else { continue }
            let pts = ring.map(project).map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
            svg.open("a", .init("href", link(feature.path)))
            svg.element("title", text: feature.title)
            svg.empty("polygon", .init("class", "map-area"), .init("points", pts), .init("fill", feature.color), .init("stroke", feature.color))
            svg.close("a")
        }
        // Southern markers are drawn last, so nearer ones overlap those behind them; at one
        // latitude, in the order of their paths' bytes. (Each point's marker is drawn as a kept
        // one is: its markup around its position. A map of every report has ten thousand,
        // sorted by their places in the list, not as copies.)
        let all = markers + features.compactMap { DrawnMarker(made: $0, link: link) }
        let order = all.indices.sorted { a, b in
            all[a].at.lat != all[b].at.lat ? all[a].at.lat > all[b].at.lat : all[a].path.lexicographicallyPrecedes(all[b].path)
        }
        let highlighted = highlight.map { Array($0.utf8) }
        var markup: [UInt8] = []
        for index in order {
            let marker = all[index]
            let (x, y) = project(marker.at)
            markup.removeAll(keepingCapacity: true)
            markup += marker.head
            FixedPoint.append(x, digits: 1, to: &markup)
            markup += "\" cy=\"".utf8
            FixedPoint.append(y, digits: 1, to: &markup)
            markup += "\" r=\"".utf8
            svg.append(made: markup)
            if let highlighted, marker.path.elementsEqual(highlighted) { svg.append(literal: "10") } else { svg.append(literal: "7") }
            svg.append(made: marker.tail)
        }
        scaleBar(metresPerPixel: metresPerUnit / scale, into: &svg)
        svg.close("svg")
        return svg.html
    }

    /// A bar of a round length near 100 px, bottom left.
    func scaleBar(metresPerPixel: Double, into svg: inout MarkupWriter) {
        let steps: [Double] = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000]
        let target = metresPerPixel * 110
        let metres = steps.last { $0 <= target } ?? steps[0]
        let length = metres / metresPerPixel
        let label = metres >= 1000 ? strings.decimal(metres / 1000, digits: 0) + " km" : strings.number(Int(metres)) + " m"
        let x = 12.0, y = height - 14
        svg.open("g", .init("class", "map-scale"))
        svg.empty("path", .init("d", "M\(n(x)) \(n(y - 5))V\(n(y))H\(n(x + length))V\(n(y - 5))"))
        svg.element("text", .init("x", n(x + length + 6)), .init("y", n(y)), text: label)
        svg.close("g")
    }

    private func n(_ value: Double) -> String {
        FixedPoint.text(value, digits: 1)
    }
}

/// A point's marker on a drawn map: its markup but for where it is drawn, which the map's
/// projection gives, and its radius (larger for the highlighted one). The reports' markers are
/// kept so from build to build (`MapFeatures.drawn`), and every point is drawn so
/// (`init(made:link:)`): a kept marker is drawn as a made one.
struct DrawnMarker {
    let at: Coordinate
    /// Its page's path (the order of markers at one latitude, and which is highlighted), its
    /// category and colour (the legend).
    let path: ArraySlice<UInt8>
    let category: ArraySlice<UInt8>
    let color: ArraySlice<UInt8>
    /// `<a …><title>…</title><circle cx="`, and after the radius `" fill="…"/></a>`.
    let head: ArraySlice<UInt8>
    let tail: ArraySlice<UInt8>

    /// A point feature's marker as kept: its longitude's and latitude's bits, then its path,
    /// category, colour, head and tail, each after its length; no bytes for an outline.
    static func kept(_ feature: MapFeature, link: (String) -> String) -> [UInt8] {
        guard case .point(let c) = feature.shape else { return [] }
        var head = MarkupWriter(capacity: 256)
        head.open("a", .init("href", link(feature.path)), .init("class", "map-marker"), .init("data-category", feature.category))
        head.element("title", text: feature.title)
        head.append(literal: "<circle cx=\"")
        // (`<circle fill="…"/></a>` but for `<circle`, after the radius's closing quote.)
        var circle = MarkupWriter(capacity: 64)
        circle.empty("circle", .init("fill", feature.color))
        circle.close("a")
        let tail = [UInt8(ascii: "\"")] + circle.bytes.dropFirst("<circle".utf8.count)
        var bytes: [UInt8] = []
        KeptBytes.append(c.lon.bitPattern, to: &bytes)
        KeptBytes.append(c.lat.bitPattern, to: &bytes)
        for part in [Array(feature.path.utf8), Array(feature.category.utf8), Array(feature.color.utf8), head.bytes, tail] {
            KeptBytes.append(UInt32(part.count), to: &bytes)
            bytes += part
        }
        return bytes
    }

    /// A marker as `kept` keeps it; nil for bytes it does not make.
    init?(kept bytes: ArraySlice<UInt8>) {
        guard bytes.count >= 36 else { return nil }
        var at = bytes.startIndex + 16
        func part() -> ArraySlice<UInt8>? {
            guard bytes.endIndex - at >= 4 else { return nil }
            let count = Int(KeptBytes.read(UInt32.self, bytes, at: at - bytes.startIndex))
            guard bytes.endIndex - at - 4 >= count else { return nil }
            defer { at += 4 + count }
            return bytes[(at + 4)..<(at + 4 + count)]
        }
        guard let path = part(), let category = part(), let color = part(), let head = part(), let tail = part(), at == bytes.endIndex else { return nil }
        self.at = Coordinate(lat: Double(bitPattern: KeptBytes.read(UInt64.self, bytes, at: 8)),
                             lon: Double(bitPattern: KeptBytes.read(UInt64.self, bytes, at: 0)))
        (self.path, self.category, self.color, self.head, self.tail) = (path, category, color, head, tail)
    }

    /// A point feature's marker (nil for an outline).
    init?(made feature: MapFeature, link: (String) -> String) {
        let bytes = Self.kept(feature, link: link)
        guard !bytes.isEmpty else { return nil }
        self.init(kept: bytes[...])
    }
}
