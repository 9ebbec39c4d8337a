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

extension MapFeature {
    /// A point as the fragment memory keeps it: its longitude and latitude (as their bits), its
    /// date (its encoding as a `Moment`, or none), then its texts, each ended by a NUL. No
    /// bytes for an outline.
    var kept: [UInt8] {
        guard case .point(let c) = shape else { return [] }
        var bytes: [UInt8] = []
        for word in [c.lon.bitPattern, c.lat.bitPattern, date.map { UInt64(bitPattern: $0.seconds << 1 | ($0.isDateOnly ? 1 : 0)) } ?? 0] {
            KeptBytes.append(word, to: &bytes)
        }
        bytes.append(date == nil ? 0 : 1)
        for text in [title, path, category, description, color, symbol] {
            bytes += text.utf8
            bytes.append(0)
        }
        return bytes
    }

    /// A point as `kept` keeps it; nil for bytes it does not make (no bytes: no feature).
    init?(kept bytes: ArraySlice<UInt8>) {
        guard bytes.count > 25, bytes.last == 0 else { return nil }
        func word(_ at: Int) -> UInt64 { KeptBytes.read(UInt64.self, bytes, at: at) }
        let base = bytes.startIndex
        // (Six texts, each ended by a NUL; read without a list of slices: a map of every report
        // reads ten thousand.)
        var texts: [String] = []
        texts.reserveCapacity(6)
        var start = base + 25
        for index in (base + 25)..<bytes.endIndex where bytes[index] == 0 {
            texts.append(String(decoding: bytes[start..<index], as: UTF8.self))
            start = index + 1
        }
        guard texts.count == 6 else { return nil }
        let stamp = Int64(bitPattern: word(16))
        self.init(shape: .point(Coordinate(lat: Double(bitPattern: word(8)), lon: Double(bitPattern: word(0)))),
                  title: texts[0], path: texts[1], category: texts[2],
                  date: bytes[base + 24] == 1 ? Moment(seconds: stamp >> 1, isDateOnly: stamp & 1 == 1) : nil,
                  description: texts[3], color: texts[4], symbol: texts[5])
    }
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

    /// The things on a map. `drawn`: for a map drawn in a page (`SVGMap`), which shows no
    /// report's description, so none is read (a page of every report's map then does not
    /// depend on their texts).
    func features(_ id: MapID, drawn: Bool = false) -> [MapFeature] {
        guard drawn else { return things(id, each: { $0 }, reports: { $1.compactMap { reportFeature($0) } }) }
        // (A report's drawn feature is kept from the last build while its headline is the same.)
        return things(id, each: { $0 }, reports: { key, ids in
            let kept = view.entries("map:" + key, each: "map:report:", ids: ids) { reportFeature($0, described: false)?.kept ?? [] }
            return zip(ids, kept).compactMap { id, kept in kept.isEmpty ? nil : MapFeature(kept: kept) ?? reportFeature(id, described: false) }
        })
    }

    /// The things on a map, in order: the reports' made by `reports` from their ids (with a key
    /// that names them: `reports`, `area:` and its id), the others by `each` from their features.
    func things<Thing>(_ id: MapID, each: (MapFeature) -> Thing, reports: (_ key: String, _ ids: [String]) -> [Thing]) -> [Thing] {
        switch id {
        case .reports:
            return view.areas.compactMap(areaFeature).map(each) + view.readingEvery { reports("reports", view.reportOrder.sorted()) }
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
    func path(_ id: MapID) -> String {
        switch id {
        case .reports: return routes.reportsMap
        case .area(let aid): return routes.areaMap(aid)
        case .locations: return routes.locationsMap
        case .album(let key): return routes.albumMap(key)
        }
    }

    /// Albums whose photos carry a GPS position get a map.
    func albumHasMap(_ album: AlbumModel) -> Bool {
        album.photos.contains { view.image($0.path)?.info.latitude != nil }
    }
}
