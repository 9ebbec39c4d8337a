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
    /// What the drawing leaves out, said under it (not under the interactive map).
    var note: String?
}

/// Makes map blocks.
struct MapBlocks: Rendering {
    let inputs: RenderInputs

    /// Nil when nothing has a position.
    func block(id: String, title: String, features: [MapFeature], markers: [DrawnMarker] = [], geoJSON: String?,
               highlight: String? = nil) -> MapBlock? {
        let description = strings.count("map_points", features.count { if case .point = $0.shape { true } else { false } } + markers.count)
        var svg = SVGMap(
            id: id, title: title, description: description, features: features, highlight: highlight,
            link: link, strings: strings)
        svg.markers = markers
        guard let drawing = svg.render() else { return nil }
        var legend: [MapBlock.LegendItem] = []
        var seen: Set<String> = []
        func add(_ category: String, color: String) {
            guard seen.insert(category).inserted else { return }
            let label: String
            if let known = Category(rawValue: category) {
                label = strings["category_\(known.rawValue)"]
            } else {
                label = strings["map_legend_\(category)"]
            }
            legend.append(MapBlock.LegendItem(label: label, color: color, area: category == "area"))
        }
        for feature in features { add(feature.category, color: feature.color) }
        // (Ten thousand markers: a category's name made only when none of the seen is it.)
        var seenBytes: [[UInt8]] = []
        for marker in markers where !seenBytes.contains(where: { marker.category.elementsEqual($0) }) {
            seenBytes.append(Array(marker.category))
            add(String(decoding: marker.category, as: UTF8.self), color: String(decoding: marker.color, as: UTF8.self))
        }
        return MapBlock(svg: drawing, legend: legend, tiles: site.mapTiles, attribution: site.mapAttribution, geojson: geoJSON.map(routes.url))
    }

    var features: MapFeatures { MapFeatures(inputs: inputs) }

    /// A site-relative path as a map links it.
    func link(_ path: String) -> String { routes.url(path) }
}
