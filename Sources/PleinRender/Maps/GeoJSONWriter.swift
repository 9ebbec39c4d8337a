import PleinText
import PleinModel
import Foundation
import PleinCore

/// RFC 7946 GeoJSON: a FeatureCollection with a bbox, `[lon, lat]` positions rounded to six
/// decimals, counter-clockwise exterior rings, no `crs`, and simplestyle properties.
struct GeoJSONFile: Rendering {
    let inputs: RenderInputs
    let id: MapID

    /// One feature: the box around its positions (for the collection's bbox) and its JSON, as
    /// it is written in the collection's list of features.
    struct Part {
        let bounds: Geo.Bounds?
        /// (A slice of the kept bytes it was read from, not a copy of them.)
        let json: ArraySlice<UInt8>

        /// As the fragment memory keeps it: the number of positions, each position's longitude
        /// and latitude (as their bits), then the JSON. (The positions kept are the corners of
        /// the box: a polygon's box is theirs.)
        var kept: [UInt8] {
            let corners = bounds.map { $0.minLat == $0.maxLat && $0.minLon == $0.maxLon
                ? [Coordinate(lat: $0.minLat, lon: $0.minLon)]
                : [Coordinate(lat: $0.minLat, lon: $0.minLon), Coordinate(lat: $0.maxLat, lon: $0.maxLon)] } ?? []
            var bytes: [UInt8] = []
            bytes.reserveCapacity(4 + corners.count * 16 + json.count)
            KeptBytes.append(UInt32(corners.count), to: &bytes)
            for position in corners {
                KeptBytes.append(position.lon.bitPattern, to: &bytes)
                KeptBytes.append(position.lat.bitPattern, to: &bytes)
            }
            bytes += json
            return bytes
        }

        init(positions: [Coordinate], json: [UInt8]) {
            bounds = Geo.Bounds(positions)
            self.json = json[...]
        }

        /// A part as `kept` keeps it; nil for bytes it does not make (a report without a place
        /// on the map is kept as no bytes).
        init?(kept bytes: ArraySlice<UInt8>) {
            guard bytes.count >= 4 else { return nil }
            func word(_ at: Int) -> Double { Double(bitPattern: KeptBytes.read(UInt64.self, bytes, at: at)) }
            let count = Int(KeptBytes.read(UInt32.self, bytes, at: 0))
            guard bytes.count >= 4 + count * 16 else { return nil }
            // (A hundred thousand reports' points: their box made as they are read, no list of them.)
            var box = (minLat: Double.infinity, minLon: Double.infinity, maxLat: -Double.infinity, maxLon: -Double.infinity)
            for i in 0..<count {
                let (lon, lat) = (word(4 + i * 16), word(4 + i * 16 + 8))
                box = (min(box.minLat, lat), min(box.minLon, lon), max(box.maxLat, lat), max(box.maxLon, lon))
            }
            bounds = count == 0 ? nil : Geo.Bounds(minLat: box.minLat, minLon: box.minLon, maxLat: box.maxLat, maxLon: box.maxLon)
            json = bytes[(bytes.startIndex + 4 + count * 16)...]
        }
    }

    func render() -> OutputFile {
        let features = maps.features
        // (A report's feature is kept from the last build while what it shows is the same.)
        let parts = features.things(id, each: part, reports: { key, ids in
            let kept = view.entries("geojson:" + key, each: "geojson:report:", ids: ids) { features.reportFeature($0).map(part)?.kept ?? [] }
            return zip(ids, kept).compactMap { id, kept in kept.isEmpty ? nil : Part(kept: kept) ?? features.reportFeature(id).map(part) }
        })
        return OutputFile(path: features.path(id), bytes: collection(parts))
    }

    /// The FeatureCollection of `parts`: compact, a feature a line (a diff of two builds' maps
    /// shows the features that changed), and a newline. (Indented, the map of 100,000 reports
    /// was 88 MB for a browser to load; compact, 70 MB: most of a feature is its text.)
    private func collection(_ parts: [Part]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(parts.reduce(64) { $0 + $1.json.count + 2 })
        out += "{\"type\":\"FeatureCollection\"".utf8
        let boxes = parts.compactMap(\.bounds)
        if var bounds = boxes.first {
            for box in boxes.dropFirst() {
                (bounds.minLat, bounds.maxLat) = (min(bounds.minLat, box.minLat), max(bounds.maxLat, box.maxLat))
                (bounds.minLon, bounds.maxLon) = (min(bounds.minLon, box.minLon), max(bounds.maxLon, box.maxLon))
            }
            out += ",\"bbox\":".utf8
            JSON.array([bounds.minLon, bounds.minLat, bounds.maxLon, bounds.maxLat].map { .number(Geo.round6($0)) }).write(to: &out, pretty: false, indent: 0)
        }
        out += ",\"features\":[".utf8
        // (A hundred thousand features of a map of every report: each copied in whole.)
        for (index, part) in parts.enumerated() {
            out += (index == 0 ? "\n" : ",\n").utf8
            part.json.withUnsafeBufferPointer { out.append(contentsOf: $0) }
        }
        out += (parts.isEmpty ? "]}\n" : "\n]}\n").utf8
        return out
    }

    /// A feature as it is written in the collection (on a line of its own).
    private func part(_ feature: MapFeature) -> Part {
        let geometry: JSON
        let positions: [Coordinate]
        switch feature.shape {
        case .point(let c):
            positions = [c]
            geometry = .object([("type", .string("Point")), ("coordinates", position(c))])
        case .polygon(let ring):
            positions = ring
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
        var json: [UInt8] = []
        JSON.object([("type", .string("Feature")), ("geometry", geometry), ("properties", .object(properties))]).write(to: &json, pretty: false, indent: 0)
        return Part(positions: positions, json: json)
    }

    private func position(_ c: Coordinate) -> JSON {
        .array([.number(Geo.round6(c.lon)), .number(Geo.round6(c.lat))])
    }
}
