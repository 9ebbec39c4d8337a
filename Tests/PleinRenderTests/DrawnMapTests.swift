import Foundation
import PleinText
import PleinCore
@testable import PleinRender
import Testing

@Suite struct DrawnMapTests {
    /// A marker as kept (`DrawnMarker`) is drawn as the writer writes it whole: its link, its
    /// title escaped, its circle at the projected place, larger when highlighted.
    @Test func aKeptMarkerIsDrawnAsTheWriterWritesIt() throws {
        let feature = MapFeature(
            shape: .point(Coordinate(lat: 52.3601, lon: 4.9301)), title: "Lamp \"kapot\" <hoek> & paal", path: "reports/1001/lamp/",
            category: "attention", date: nil, description: "", color: "#b45309", symbol: "caution")
        let link: (String) -> String = { "/" + $0 }
        let kept = DrawnMarker.kept(feature, link: link)
        let marker = try #require(DrawnMarker(kept: kept[...]))
        #expect(marker.at.lat == 52.3601 && marker.at.lon == 4.9301)
        #expect(String(decoding: marker.path, as: UTF8.self) == feature.path && String(decoding: marker.category, as: UTF8.self) == "attention")
        #expect(String(decoding: marker.color, as: UTF8.self) == "#b45309")
        for (x, y, r) in [("12.5", "300", "7"), ("-3.1", "0", "10")] {
            var whole = MarkupWriter(capacity: 256)
            whole.open("a", .init("href", "/reports/1001/lamp/"), .init("class", "map-marker"), .init("data-category", "attention"))
            whole.element("title", text: feature.title)
            whole.empty("circle", .init("cx", x), .init("cy", y), .init("r", r), .init("fill", "#b45309"))
            whole.close("a")
            let drawn = Array(marker.head) + Array(x.utf8) + Array("\" cy=\"".utf8) + Array(y.utf8) + Array("\" r=\"".utf8) + Array(r.utf8)
                + Array(marker.tail)
            #expect(drawn == whole.bytes)
        }
        // Bytes it does not make are no marker; an outline has none.
        #expect(DrawnMarker(kept: kept.dropLast()) == nil && DrawnMarker(kept: []) == nil)
        let outline = MapFeature(shape: .polygon([Coordinate(lat: 0, lon: 0)]), title: "", path: "", category: "area", date: nil,
                                 description: "", color: "", symbol: "")
        #expect(DrawnMarker.kept(outline, link: link).isEmpty && DrawnMarker(made: outline, link: link) == nil)
    }

    /// `FixedPoint.append` writes a drawn map's numbers as `%.1f` does, trimmed.
    @Test func fixedPointBytesArePrintfs() {
        for value in stride(from: -400.0, through: 400.0, by: 0.0371) {
            var printed = String(format: "%.1f", (value * 10).rounded() / 10)
            if printed.hasSuffix(".0") { printed.removeLast(2) }
            if printed == "-0" { printed = "0" }
            var bytes: [UInt8] = [1]
            FixedPoint.append(value, digits: 1, to: &bytes)
            #expect(bytes == [1] + Array(printed.utf8))
        }
    }
}
