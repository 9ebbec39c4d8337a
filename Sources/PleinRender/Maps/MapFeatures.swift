import PleinText
public import PleinModel
import Foundation
public import PleinCore
import PleinMarkdown

/// Which map: the GeoJSON files of PRODUCT.md "Maps", plus one per album with GPS photos.
public enum MapID: Hashable, Sendable {
    case reports
    case area(String)
    case locations
    case album(AlbumKey)
}

/// A thing on a map, the same for the GeoJSON file and the SVG drawing.
struct MapFeature {
    enum Shape {
        case point(Coordinate)
        /// An area's outline, counter-clockwise, the first point not repeated.
        case polygon([Coordinate])
    }

    let shape: Shape
    let title: String
    /// Site-relative path of the record's page.
    let path: String
    let category: String
    let date: Moment?
    let description: String
    let color: String
    let symbol: String
}

/// Colours and Maki symbols of the things that are not report categories.
enum MapStyle {
    static let location = (color: "#334155", symbol: "library")
    static let photo = (color: "#0e7490", symbol: "attraction")
    static let area = "#1d4ed8"
}

/// The things on each map, and where each map's GeoJSON is.
struct MapFeatures: Rendering {
    let inputs: RenderInputs

    /// The things on a map.
    func features(_ id: MapID) -> [MapFeature] {
        things(id, each: { $0 }, reports: { $1.compactMap { reportFeature($0) } })
    }

    /// The map of every report as the list of areas draws it: the areas' outlines and, past
    /// `newest` reports, only the newest ones' markers (at 100,000 reports the drawing of all
    /// was a page of 26 MB, and its markers hid one another; each area's page draws all of its
    /// own, and the interactive map loads every one). Also how many reports there are.
    func drawnReports(newest limit: Int, link: (String) -> String) -> (features: [MapFeature], markers: [DrawnMarker], total: Int) {
        let order = view.reportOrder
        guard order.count > limit else {
            let (features, markers) = drawn(.reports, link: link)
            return (features, markers, order.count)
        }
        return (view.areas.compactMap(areaFeature), markers("newest", ids: Array(order.prefix(limit)).sortedByBytes(), link: link), order.count)
    }

    /// The things on a map drawn in a page (`SVGMap`): the outlines as features, the reports as
    /// their markers, kept from the last build while a report's headline is the same. It shows
    /// no report's description, so none is read (a page of every report's map then does not
    /// depend on their texts).
    func drawn(_ id: MapID, link: (String) -> String) -> (features: [MapFeature], markers: [DrawnMarker]) {
        var drawn: [DrawnMarker] = []
        let features = things(id, each: { $0 }, reports: { key, ids in
            drawn = markers(key, ids: ids, link: link)
            return []
        })
        return (features, drawn)
    }

    /// The markers of the reports `ids`, each kept in the list `map:` + `key` (a report's is the
    /// same in every list that holds it).
    private func markers(_ key: String, ids: [String], link: (String) -> String) -> [DrawnMarker] {
        let kept = view.entries("map:" + key, each: "map:report:", ids: ids) { id in
            reportFeature(id, described: false).map { DrawnMarker.kept($0, link: link) } ?? []
        }
        return zip(ids, kept).compactMap { id, kept in
            kept.isEmpty ? nil : DrawnMarker(kept: kept) ?? reportFeature(id, described: false).flatMap { DrawnMarker(made: $0, link: link) }
        }
    }

    /// The things on a map, in order: the reports' made by `reports` from their ids (with a key
    /// that names them: `reports`, `area:` and its id), the others by `each` from their features.
    func things<Thing>(_ id: MapID, each: (MapFeature) -> Thing, reports: (_ key: String, _ ids: [String]) -> [Thing]) -> [Thing] {
        switch id {
        case .reports:
            return view.areas.compactMap(areaFeature).map(each) + view.readingEvery { reports("reports", view.reportIDs) }
        case .area(let aid):
            let area = view.area(aid)
            return (area.flatMap(areaFeature).map { [each($0)] } ?? []) + reports("area:" + aid, area?.reports.sorted() ?? [])
        case .locations:
            return view.locations.compactMap(locationFeature).map(each)
        case .album(let key):
            guard let album = view.album(key) else { return [] }
            return album.photos.compactMap { photoFeature(album, $0) }.map(each)
        }
    }

    func areaFeature(_ area: AreaModel) -> MapFeature? {
        outline(of: AreaCard(area), description: strings.count("report_count", area.reports.count))
    }

    /// An area's outline, described by `description` (a drawn map shows only its title).
    func outline(of area: AreaCard, description: String = "") -> MapFeature? {
        guard area.boundary.count >= 3 else { return nil }
        return MapFeature(
            shape: .polygon(Geo.counterClockwise(area.boundary)), title: names.area(area),
            path: routes.area(area.id), category: "area", date: nil,
            description: description, color: MapStyle.area, symbol: "")
    }

    func reportFeature(_ id: String, described: Bool = true) -> MapFeature? {
        guard let r = view.headline(id), let location = r.location else { return nil }
        return MapFeature(
            shape: .point(location), title: r.title, path: routes.report(id),
            category: r.category.rawValue, date: r.at, description: described ? summary(of: r.file, limit: 280) : "",
            color: CategoryStyle.color(r.category), symbol: CategoryStyle.symbol(r.category))
    }

    func locationFeature(_ l: LocationModel) -> MapFeature? {
        guard let location = l.location else { return nil }
        let description = [l.address, strings.count("present_count", l.present.count)].compactMap { $0 }.joined(separator: " · ")
        return MapFeature(
            shape: .point(location), title: l.name, path: routes.location(l.id), category: "location",
            date: view.asOf, description: description, color: MapStyle.location.color, symbol: MapStyle.location.symbol)
    }

    func photoFeature(_ album: AlbumModel, _ photo: PhotoModel) -> MapFeature? {
        guard let info = view.image(photo.path)?.info, let lat = info.latitude, let lon = info.longitude else { return nil }
        return MapFeature(
            shape: .point(Coordinate(lat: lat, lon: lon)), title: photo.caption ?? photo.file,
            // No capture time: with the place, it says where someone was when.
            path: routes.photo(album.key, photo.slug), category: "photo", date: nil, description: album.title,
            color: MapStyle.photo.color, symbol: MapStyle.photo.symbol)
    }

    /// Site-relative path of a map's GeoJSON file.
    func path(_ id: MapID) -> String { routes.map(id) }

    /// Albums whose photos carry a GPS position get a map.
    func albumHasMap(_ album: AlbumModel) -> Bool {
        album.photos.contains { view.image($0.path)?.info.latitude != nil }
    }
}
