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
    /// The feature drawn larger (the report of a report page), by path.
    let highlight: String?
    /// Turns a site-relative path into a link.
    let link: (String) -> String
    let strings: Strings

    func render() -> TrustedHTML? {
        var points: [Coordinate] = []
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
        // Southern markers are drawn last, so nearer ones overlap those behind them.
        // (Sorted by position in `features`, not as copies of them: a map of every report has ten thousand.)
        let markers = features.indices.compactMap { i -> (index: Int, at: Coordinate)? in
            if case .point(let c) = features[i].shape { return (i, c) }
            return nil
        }.sorted { a, b in a.at.lat != b.at.lat ? a.at.lat > b.at.lat : features[a.index].path < features[b.index].path }
        for (index, c) in markers {
            let feature = features[index]
            let (x, y) = project(c)
            let big = feature.path == highlight
            svg.open("a", .init("href", link(feature.path)), .init("class", "map-marker"), .init("data-category", feature.category))
            svg.element("title", text: feature.title)
            svg.empty("circle", .init("cx", n(x)), .init("cy", n(y)), .init("r", big ? "10" : "7"), .init("fill", feature.color))
            svg.close("a")
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
