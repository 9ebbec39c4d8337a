import PleinText
import PleinCore
import PleinMustache

/// A map block for a page: the SVG drawing, its legend, and what the script needs for an
/// interactive map of the same GeoJSON.
struct MapBlock: TemplateValues, Encodable {
    struct LegendItem: TemplateValues, Encodable {
        let label: String
        let color: String
        /// Whether it stands for areas (drawn as a square, not a dot).
        let area: Bool
    }

    let svg: TrustedHTML
    let legend: [LegendItem]
    let tiles: String
    let attribution: String
    /// The GeoJSON file the interactive map loads.
    let geojson: String?
}

/// Makes map blocks.
struct MapBlocks: Rendering {
    let inputs: RenderInputs

    /// Nil when nothing has a position.
    func block(id: String, title: String, features: [MapFeature], geoJSON: String?, highlight: String? = nil) -> MapBlock? {
        let description = strings.count("map_points", features.count { if case .point = $0.shape { true } else { false } })
        let svg = SVGMap(
            id: id, title: title, description: description, features: features, highlight: highlight,
            link: { [routes] in routes.url($0) }, strings: strings)
        guard let drawing = svg.render() else { return nil }
        var legend: [MapBlock.LegendItem] = []
        var seen: Set<String> = []
        for feature in features where seen.insert(feature.category).inserted {
            let label: String
            if let category = Category(rawValue: feature.category) {
                label = strings["category_\(category.rawValue)"]
            } else {
                label = strings["map_legend_\(feature.category)"]
            }
            legend.append(MapBlock.LegendItem(label: label, color: feature.color, area: feature.category == "area"))
        }
        return MapBlock(svg: drawing, legend: legend, tiles: site.mapTiles, attribution: site.mapAttribution, geojson: geoJSON.map(routes.url))
    }

    var features: MapFeatures { MapFeatures(inputs: inputs) }
}
