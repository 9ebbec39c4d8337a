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
