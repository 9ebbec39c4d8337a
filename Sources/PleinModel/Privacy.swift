public import PleinCore
import Foundation

/// Coarsens positions before they reach the model, so no renderer can publish more.
public enum Privacy {
    /// Snaps a position to the centre of its cell in a grid of `km` kilometres (equal-angle rows
    /// of `km` north–south; columns `km` wide at the row's latitude).
    public static func coarsen(_ c: Coordinate, km: Double) -> Coordinate {
        let kmPerDegreeLat = 111.32
        let latStep = km / kmPerDegreeLat
        let row = (c.lat / latStep).rounded(.down)
        let lat = min(90, max(-90, (row + 0.5) * latStep))
        let kmPerDegreeLon = max(kmPerDegreeLat * cos(lat * .pi / 180), 0.01)
        // A whole number of columns round the world, so cells line up at the antimeridian.
        let columns = max(1, (360 / (km / kmPerDegreeLon)).rounded(.down))
        let lonStep = 360 / columns
        let column = min(columns - 1, ((c.lon + 180) / lonStep).rounded(.down))
        let lon = (column + 0.5) * lonStep - 180
        return Coordinate(lat: Geo.round6(lat), lon: Geo.round6(lon))
    }
}

extension Privacy {
    /// Where album photos may appear on their album's map. A photo's GPS position is a precise
    /// place, often someone's garden: it is snapped to the site's privacy grid unless its album
    /// asks for exact positions (`map: exact`, a dive site), and a photo taken within that
    /// distance of a member's home is on no map at all, however the album places its photos.
    public struct PhotoPositions: Sendable {
        let km: Double
        /// Members' homes as given (a place's point or coordinates), by latitude.
        let homes: [Coordinate]
        let albums: [String: AlbumMap]

        public init(_ content: Content) {
            km = content.site.locationPrecisionKm
            let places = Dictionary(content.places.map { ($0.name, $0.coordinate) }, uniquingKeysWith: { a, _ in a })
            homes = content.members.compactMap { $0.home?.coordinate { places[$0] } }.sorted { $0.lat < $1.lat }
            albums = Dictionary(content.albums.map { ($0.group + "/" + $0.id, $0.map) }, uniquingKeysWith: { a, _ in a })
        }

        /// The position to publish for the content file at `path`, taken at `taken`; nil: none.
        /// Only album photos have one.
        public func position(of path: String, takenAt taken: Coordinate) -> Coordinate? {
            guard case .photo(let group, let album) = FileRole.of(path), !nearHome(taken) else { return nil }
            switch albums[group + "/" + album] ?? .coarse {
            case .coarse: return Privacy.coarsen(taken, km: km)
            case .exact: return Coordinate(lat: Geo.round6(taken.lat), lon: Geo.round6(taken.lon))
            case .hidden: return nil
            }
        }

        /// The albums whose map would show their photos but shows none: each of their photos
        /// with a position (`taken`, by path) was taken near a member's home. Their folders and
        /// how many such photos each has, in folder order.
        public func albumsKeptOffTheMap(taken: [String: Coordinate]) -> [(album: String, photos: Int)] {
            var placed: [String: (count: Int, shown: Bool)] = [:]
            for (path, c) in taken {
                guard case .photo(let group, let album) = FileRole.of(path), (albums[group + "/" + album] ?? .coarse) != .hidden else { continue }
                let folder = ContentLayout.albumFolder(group: group, id: album)
                var entry = placed[folder] ?? (0, false)
                entry.count += 1
                entry.shown = entry.shown || !nearHome(c)
                placed[folder] = entry
            }
            return placed.filter { !$0.value.shown }.map { ($0.key, $0.value.count) }.sorted { $0.album < $1.album }
        }

        /// Whether `c` is within the privacy distance of a member's home.
        func nearHome(_ c: Coordinate) -> Bool {
            // Homes further north or south than the distance cannot be near.
            let band = km / 111.0
            var low = 0, high = homes.count
            while low < high {
                let mid = (low + high) / 2
                if homes[mid].lat < c.lat - band { low = mid + 1 } else { high = mid }
            }
            for home in homes[low...] {
                if home.lat > c.lat + band { break }
                if distanceKm(home, c) < km { return true }
            }
            return false
        }
    }
}

/// Great-circle distance in kilometres (haversine on a sphere of the mean Earth radius).
public func distanceKm(_ a: Coordinate, _ b: Coordinate) -> Double {
    let r = 6371.0088
    let φ1 = a.lat * .pi / 180, φ2 = b.lat * .pi / 180
    let dφ = φ2 - φ1
    var dλ = (b.lon - a.lon) * .pi / 180
    if dλ > .pi { dλ -= 2 * .pi } else if dλ < -.pi { dλ += 2 * .pi }
    let h = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
    return 2 * r * asin(min(1, sqrt(h)))
}
