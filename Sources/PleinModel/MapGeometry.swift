public import PleinCore
import Foundation

/// Geometry for maps: bounds, winding and Web Mercator.
public enum Geo {
    /// Six decimals (about 11 cm): the precision of every published coordinate.
    public static func round6(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }

    /// Twice the signed area of a ring in lon/lat (positive: counter-clockwise).
    public static func signedArea(_ ring: [Coordinate]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.lon * b.lat - b.lon * a.lat
        }
        return sum
    }

    /// The ring counter-clockwise (RFC 7946 §3.1.6 for exterior rings).
    public static func counterClockwise(_ ring: [Coordinate]) -> [Coordinate] {
        signedArea(ring) < 0 ? ring.reversed() : ring
    }

    /// Web Mercator in units of the world's width (0…1 from west to east, north to south).
    public static func mercator(_ c: Coordinate) -> (x: Double, y: Double) {
        let lat = min(max(c.lat, -85.05112878), 85.05112878) * .pi / 180
        let x = (c.lon + 180) / 360
        let y = (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2
        return (x, y)
    }

    public struct Bounds: Sendable, Equatable {
        public var minLat: Double, minLon: Double, maxLat: Double, maxLon: Double

        public init(minLat: Double, minLon: Double, maxLat: Double, maxLon: Double) {
            (self.minLat, self.minLon, self.maxLat, self.maxLon) = (minLat, minLon, maxLat, maxLon)
        }

        public init?(_ points: [Coordinate]) {
            guard let first = points.first else { return nil }
            minLat = first.lat; maxLat = first.lat; minLon = first.lon; maxLon = first.lon
            for p in points.dropFirst() {
                minLat = min(minLat, p.lat); maxLat = max(maxLat, p.lat)
                minLon = min(minLon, p.lon); maxLon = max(maxLon, p.lon)
            }
        }
    }
}

/// "Find divers near…": members with a diving card and a (coarsened) home, nearest first.
public enum DiverSearch {
    public struct Result: Sendable, Equatable {
        public let member: String
        public let kilometres: Double
    }

    /// Divers within `radius` km of `point`, nearest first, ties by name then id.
    public static func search(_ model: SiteModel, near point: Coordinate, within radius: Double) -> [Result] {
        model.memberOrder.compactMap { id -> Result? in
            guard let m = model.members[id], m.diving != nil, let home = m.home else { return nil }
            let d = distanceKm(point, home)
            return d <= radius ? Result(member: id, kilometres: d) : nil
        }.sorted { a, b in
            a.kilometres != b.kilometres ? a.kilometres < b.kilometres : model.memberOrder.firstIndex(of: a.member)! < model.memberOrder.firstIndex(of: b.member)!
        }
    }

    /// A place of `places.yaml` by name (ignoring case), or `lat,lon`.
    public static func resolve(_ text: String, places: [Place]) -> Coordinate? {
        if let place = places.first(where: { $0.name.lowercased() == text.lowercased() }) { return place.coordinate }
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]),
           (-90...90).contains(lat), (-180...180).contains(lon) {
            return Coordinate(lat: lat, lon: lon)
        }
        return nil
    }
}
