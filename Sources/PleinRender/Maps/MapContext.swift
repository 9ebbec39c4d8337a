import PleinText
import Foundation
import PleinCore
import PleinModel
import PleinMustache

/// Where Leaflet was published, when it is available (Debian's libjs-leaflet).
public struct LeafletAssets: Sendable {
    public let script: String
    public let stylesheet: String

    public init(script: String, stylesheet: String) {
        self.script = script
        self.stylesheet = stylesheet
    }
}

extension Renderer {
    /// A map block for a page: the SVG drawing, its legend, and what the script needs for an
    /// interactive map of the same GeoJSON. Nil when nothing has a position.
    func mapContext(
        id: String, title: String, features: [MapFeature], geoJSON: String?, highlight: String? = nil
    ) -> TemplateContext? {
        let description = strings.count("map_points", features.count { if case .point = $0.shape { true } else { false } })
        let svg = SVGMap(
            id: id, title: title, description: description, features: features, highlight: highlight,
            link: { [routes] in routes.url($0) }, strings: strings)
        guard let drawing = svg.render() else { return nil }
        var legend: [TemplateContext] = []
        var seen: Set<String> = []
        for feature in features where seen.insert(feature.category).inserted {
            let label: String
            if let category = Category(rawValue: feature.category) {
                label = strings["category_\(category.rawValue)"]
            } else {
                label = strings["map_legend_\(feature.category)"]
            }
            legend.append(["label": .text(label), "color": .text(feature.color), "area": .flag(feature.category == "area")])
        }
        var c: TemplateContext = [
            "svg": .html(drawing),
            "legend": .list(legend),
            "tiles": .text(site.mapTiles),
            "attribution": .text(site.mapAttribution),
        ]
        if let geoJSON { c["geojson"] = .text(routes.url(geoJSON)) }
        return c
    }
}
