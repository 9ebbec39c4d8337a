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

    func render() -> String? {
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

        var svg = "<svg class=\"map-svg\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\""
        svg += " xmlns=\"http://www.w3.org/2000/svg\" aria-labelledby=\"\(id)-title\" aria-describedby=\"\(id)-desc\">"
        svg += "<title id=\"\(id)-title\">\(XML.escape(title))</title>"
        svg += "<desc id=\"\(id)-desc\">\(XML.escape(description))</desc>"
        svg += "<rect class=\"map-bg\" width=\"\(n(width))\" height=\"\(n(height))\"/>"
        for feature in features {
            guard case .polygon(let ring) = feature.shape else { continue }
            let pts = ring.map(project).map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
            svg += "<a href=\"\(XML.escape(link(feature.path)))\"><title>\(XML.escape(feature.title))</title>"
            svg += "<polygon class=\"map-area\" points=\"\(pts)\" fill=\"\(feature.color)\" stroke=\"\(feature.color)\"/></a>"
        }
        // Southern markers are drawn last, so nearer ones overlap those behind them.
        let markers = features.compactMap { f -> (MapFeature, Coordinate)? in
            if case .point(let c) = f.shape { return (f, c) }
            return nil
        }.sorted { a, b in a.1.lat != b.1.lat ? a.1.lat > b.1.lat : a.0.path < b.0.path }
        for (feature, c) in markers {
            let (x, y) = project(c)
            let big = feature.path == highlight
            svg += "<a href=\"\(XML.escape(link(feature.path)))\" class=\"map-marker\" data-category=\"\(XML.escape(feature.category))\">"
            svg += "<title>\(XML.escape(feature.title))</title>"
            svg += "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(big ? 10 : 7)\" fill=\"\(feature.color)\"/></a>"
        }
        svg += scaleBar(metresPerPixel: metresPerUnit / scale)
        svg += "</svg>"
        return svg
    }

    /// A bar of a round length near 100 px, bottom left.
    func scaleBar(metresPerPixel: Double) -> String {
        let steps: [Double] = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000]
        let target = metresPerPixel * 110
        let metres = steps.last { $0 <= target } ?? steps[0]
        let length = metres / metresPerPixel
        let label = metres >= 1000 ? strings.decimal(metres / 1000, digits: 0) + " km" : strings.number(Int(metres)) + " m"
        let x = 12.0, y = height - 14
        return "<g class=\"map-scale\"><path d=\"M\(n(x)) \(n(y - 5))V\(n(y))H\(n(x + length))V\(n(y - 5))\"/>"
            + "<text x=\"\(n(x + length + 6))\" y=\"\(n(y))\">\(label)</text></g>"
    }

    private func n(_ value: Double) -> String {
        FixedPoint.text(value, digits: 1)
    }
}
