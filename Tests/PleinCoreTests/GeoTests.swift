@testable import PleinCore
@testable import PleinLoad
@testable import PleinModel
import PleinTestSupport
import Testing

@Suite struct GeoTests {
    @Test func greatCircleDistances() {
        let amsterdam = Coordinate(lat: 52.3731, lon: 4.8922)
        let zandvoort = Coordinate(lat: 52.3713, lon: 4.5331)
        #expect(abs(distanceKm(amsterdam, zandvoort) - 24.4) < 0.3)
        #expect(distanceKm(amsterdam, amsterdam) == 0)
        // Across the antimeridian the short way round, not the long one.
        #expect(abs(distanceKm(Coordinate(lat: 0, lon: 179.5), Coordinate(lat: 0, lon: -179.5)) - 111.2) < 0.5)
        // At a pole every longitude is the same point.
        #expect(distanceKm(Coordinate(lat: 90, lon: 0), Coordinate(lat: 90, lon: 180)) < 1e-6)
        #expect(abs(distanceKm(Coordinate(lat: -90, lon: 0), Coordinate(lat: 90, lon: 0)) - 20_015) < 1)
        let antipodes = distanceKm(Coordinate(lat: 10, lon: 20), Coordinate(lat: -10, lon: -160))
        #expect(antipodes.isFinite && abs(antipodes - 20_015) < 1)
    }

    @Test func coarseningStaysInItsCell() {
        for km in [0.5, 1, 5] {
            for c in [Coordinate(lat: 52.3612, lon: 4.9236), Coordinate(lat: -33.9, lon: 151.2), Coordinate(lat: 89.99, lon: 179.99),
                      Coordinate(lat: 0, lon: -180), Coordinate(lat: -89.99, lon: 0)] {
                let snapped = Privacy.coarsen(c, km: km)
                #expect((-90...90).contains(snapped.lat) && (-180...180).contains(snapped.lon))
                #expect(distanceKm(c, snapped) <= km * 0.75 + 1e-9 || abs(c.lat) > 89, "\(c) → \(snapped) at \(km) km")
                #expect(Privacy.coarsen(snapped, km: km) == snapped, "snapping is idempotent")
            }
        }
    }

    /// A photo's position on its album's map: snapped unless the album says `map: exact`, none
    /// with `map: none`, and none at all within the grid's distance of a member's home.
    @Test func photoPositionsAreCoarseAndNeverNearAHome() {
        let fixture = Txtar("""
            -- site.yaml --
            title: T
            base_url: https://example.org/
            language: en
            timezone: Europe/Amsterdam
            privacy: {location_precision_km: 1}
            -- places.yaml --
            - {name: Hoorn, lat: 52.6424, lon: 5.0602}
            -- users/a.md --
            ---
            name: Ada
            home: Hoorn
            ---
            -- users/b.md --
            ---
            name: Bo
            home: {lat: 51.70, lon: 3.80}
            ---
            -- groups/g/index.md --
            ---
            name: G
            members: [a, b]
            ---
            -- groups/g/albums/garden/index.md --
            ---
            title: Garden
            ---
            -- groups/g/albums/dive/index.md --
            ---
            title: Dive
            map: exact
            ---
            -- groups/g/albums/hidden/index.md --
            ---
            title: Hidden
            map: none
            ---
            """)
        let content = ContentLoader.load(fixture.fs).content
        let positions = Privacy.PhotoPositions(content)
        let away = Coordinate(lat: 52.3712345, lon: 4.8923456)
        #expect(positions.position(of: "groups/g/albums/garden/a.jpg", takenAt: away) == Privacy.coarsen(away, km: 1))
        #expect(positions.position(of: "groups/g/albums/dive/a.jpg", takenAt: away) == Coordinate(lat: 52.371235, lon: 4.892346))
        #expect(positions.position(of: "groups/g/albums/hidden/a.jpg", takenAt: away) == nil)
        // 300 m from a home given as a place, and 900 m from one given as coordinates: on no map.
        for near in [Coordinate(lat: 52.6451, lon: 5.0602), Coordinate(lat: 51.7081, lon: 3.80)] {
            #expect(positions.position(of: "groups/g/albums/garden/a.jpg", takenAt: near) == nil)
            #expect(positions.position(of: "groups/g/albums/dive/a.jpg", takenAt: near) == nil)
        }
        // 1.2 km away is far enough.
        #expect(positions.position(of: "groups/g/albums/garden/a.jpg", takenAt: Coordinate(lat: 51.7108, lon: 3.80)) != nil)
        // Avatars and report attachments are on no map.
        #expect(positions.position(of: "users/a.jpg", takenAt: away) == nil)
        #expect(positions.position(of: "reports/1094/x/a.jpg", takenAt: away) == nil)
    }

    @Test func ringsAreWoundCounterClockwise() {
        let clockwise = [Coordinate(lat: 0, lon: 0), Coordinate(lat: 1, lon: 0), Coordinate(lat: 1, lon: 1), Coordinate(lat: 0, lon: 1)]
        #expect(Geo.signedArea(clockwise) < 0)
        #expect(Geo.signedArea(Geo.counterClockwise(clockwise)) > 0)
        #expect(Geo.counterClockwise(clockwise.reversed()) == clockwise.reversed())
    }

    @Test func diverSearchIsNearestFirstWithinTheRadius() throws {
        let fixture = Txtar("""
            -- places.yaml --
            - {name: Zandvoort, lat: 52.3713, lon: 4.5331}
            -- users/a.md --
            ---
            name: Ada
            email: a@example.org
            home: {lat: 52.40, lon: 4.60}
            diving: {dives: 10}
            ---
            -- users/b.md --
            ---
            name: Bo
            email: b@example.org
            home: {lat: 52.3713, lon: 4.54}
            diving: {dives: 3}
            ---
            -- users/c.md --
            ---
            name: Cas
            email: c@example.org
            home: {lat: 53.2, lon: 6.5}
            diving: {dives: 3}
            ---
            -- users/d.md --
            ---
            name: Dirk
            email: d@example.org
            home: {lat: 52.3713, lon: 4.54}
            ---
            """)
        let model = ModelBuilder.build(ContentLoader.load(fixture.fs).content)
        let zandvoort = try #require(DiverSearch.resolve("zandvoort", places: model.places))
        let near = DiverSearch.search(model, near: zandvoort, within: 25)
        #expect(near.map(\.member) == ["b", "a"], "Dirk is no diver; Cas lives 160 km away")
        #expect(near[0].kilometres < near[1].kilometres)
        // The radius is inclusive: a search exactly as wide as the distance finds the diver.
        let edge = near[1].kilometres
        #expect(DiverSearch.search(model, near: zandvoort, within: edge).map(\.member) == ["b", "a"])
        #expect(DiverSearch.search(model, near: zandvoort, within: edge - 0.001).map(\.member) == ["b"])
        #expect(DiverSearch.resolve("52.1,4.3", places: []) == Coordinate(lat: 52.1, lon: 4.3))
        #expect(DiverSearch.resolve("95,4", places: []) == nil)
        #expect(DiverSearch.resolve("Atlantis", places: model.places) == nil)
    }
}
