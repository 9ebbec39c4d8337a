import PleinText
import PleinModel
import Foundation
import PleinCore

/// RFC 7946 GeoJSON: a FeatureCollection with a bbox, `[lon, lat]` positions rounded to six
/// decimals, counter-clockwise exterior rings, no `crs`, and simplestyle properties.
struct GeoJSONFile: Rendering {
    let inputs: RenderInputs
    let id: MapID

    func render() -> OutputFile {
        let features = maps.features
        return OutputFile(path: features.path(id), text: geoJSON(features.features(id)))
    }

    func geoJSON(_ features: [MapFeature]) -> String {
        var all: [Coordinate] = []
        var items: [JSON] = []
        for feature in features {
            let geometry: JSON
            switch feature.shape {
            case .point(let c):
                all.append(c)
                geometry = .object([("type", .string("Point")), ("coordinates", position(c))])
            case .polygon(let ring):
                all += ring
                // RFC 7946 rings are closed: the first position is repeated at the end.
                geometry = .object([("type", .string("Polygon")), ("coordinates", .array([.array((ring + [ring[0]]).map(position))]))])
            }
            var properties: [(String, JSON)] = [
                ("title", .string(feature.title)),
                ("url", .string(routes.absolute(feature.path))),
                ("category", .string(feature.category)),
                ("date", feature.date.map { .string(site.clock.rfc3339($0)) } ?? .null),
                ("description", .string(feature.description)),
            ]
            if case .polygon = feature.shape {
                properties += [
                    ("stroke", .string(feature.color)), ("stroke-width", .number(2)), ("stroke-opacity", .number(0.9)),
                    ("fill", .string(feature.color)), ("fill-opacity", .number(0.08)),
                ]
            } else {
                properties += [
                    ("marker-color", .string(feature.color)), ("marker-symbol", .string(feature.symbol)),
                    ("marker-size", .string("medium")),
                ]
            }
            items.append(.object([("type", .string("Feature")), ("geometry", geometry), ("properties", .object(properties))]))
        }
        var collection: [(String, JSON)] = [("type", .string("FeatureCollection"))]
        if let bounds = Geo.Bounds(all) {
            collection.append(("bbox", .array([bounds.minLon, bounds.minLat, bounds.maxLon, bounds.maxLat].map { .number(Geo.round6($0)) })))
        }
        collection.append(("features", .array(items)))
        return JSON.object(collection).serialized(pretty: true) + "\n"
    }

    private func position(_ c: Coordinate) -> JSON {
        .array([.number(Geo.round6(c.lon)), .number(Geo.round6(c.lat))])
    }
}
