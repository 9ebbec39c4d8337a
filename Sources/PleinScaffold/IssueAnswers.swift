import Foundation
public import PleinCore

extension Scaffold {
    /// How `plein new from-issue` understands a resident's answers: who posts (the issue's
    /// author), where ("Where" as a place of the site, a street near one, a map app's link, or
    /// coordinates), and the area, group and category as the form offered them, by name.
    public enum IssueAnswers {
        /// Where an answer to "Where" puts a report, or why it puts it nowhere.
        public enum Position: Equatable, Sendable {
            case at(Coordinate, place: String?)
            case unknown(String)
        }

        /// The position `answer` names on the site `content` holds.
        public static func position(_ answer: String, content: Content) -> Position {
            let text = answer.trimmingCharacters(in: .whitespacesAndNewlines)
            if let (lat, lon) = Scaffold.coordinate(text) { return .at(Coordinate(lat: lat, lon: lon), place: nil) }
            if let link = text.range(of: #"(https?://|www\.|maps\.)\S+"#, options: [.regularExpression, .caseInsensitive]) {
                let url = String(text[link])
                if let c = mapLink(url) { return .at(c, place: nil) }
                let host = URLComponents(string: url.hasPrefix("http") ? url : "https://" + url)?.host?.lowercased() ?? ""
                if ["goo.gl", "maps.app.goo.gl", "g.co", "osm.org", "bit.ly"].contains(host) || host.hasSuffix(".app.goo.gl") {
                    return .unknown("'\(url)' is a short link, which does not say where it leads: open it, then copy the address your browser shows (it holds the place's coordinates)")
                }
                return .unknown("the link '\(url)' holds no coordinates: share the place from Google Maps, OpenStreetMap or Apple Maps, or give latitude, longitude")
            }
            let folded = fold(text)
            if let place = content.places.first(where: { fold($0.name) == folded }) { return .at(place.coordinate, place: place.name) }
            if let area = content.areas.first(where: { ($0.name.map(fold) == folded || $0.id.lowercased() == folded) && $0.center != nil }) {
                return .at(area.center!, place: area.name ?? area.id)
            }
            // A street address: the longest place name it holds as words ("12 Elm Road, BS6").
            let words = " " + folded.map { $0.isLetter || $0.isNumber ? $0 : " " } + " "
            let named = content.places.filter { place in
                let name = fold(place.name).map { $0.isLetter || $0.isNumber ? $0 : " " }
                return !name.allSatisfy(\.isWhitespace) && words.contains(" " + String(name) + " ")
            }
            if let place = named.max(by: { $0.name.count < $1.name.count }) { return .at(place.coordinate, place: place.name) }
            let known = content.places.map(\.name)
            if let near = Suggestions.closest(to: text, in: known) { return .unknown("'\(text)' is no place the site knows: did you mean '\(near)'?") }
            let example = content.places.first.map { String(format: "%.4f, %.4f", $0.coordinate.lat, $0.coordinate.lon) }
            return .unknown("'\(text)' is no place the site knows" + (known.isEmpty ? "" : " (it knows " + listed(known) + ")")
                            + ": give a map app's link, or latitude, longitude" + (example.map { " such as \($0)" } ?? ""))
        }

        /// The coordinates a map service's link holds: a dropped pin or searched point first, the
        /// map's centre otherwise. Google Maps (`!3d…!4d…`, `?q=`, `query=`, `ll=`, `@lat,lon`),
        /// OpenStreetMap (`mlat`/`mlon`, `#map=zoom/lat/lon`), Apple Maps (`ll=`, `q=`,
        /// `coordinate=`), Bing (`cp=lat~lon`).
        static func mapLink(_ link: String) -> Coordinate? {
            let url = link.removingPercentEncoding ?? link
            func pair(_ a: Substring, _ b: Substring) -> Coordinate? {
                guard let lat = Double(a), let lon = Double(b), (-90...90).contains(lat), (-180...180).contains(lon), lat != 0 || lon != 0 else { return nil }
                return Coordinate(lat: lat, lon: lon)
            }
            func first(_ pattern: String) -> Coordinate? {
                guard let regex = try? NSRegularExpression(pattern: pattern),
                      let m = regex.firstMatch(in: url, range: NSRange(url.startIndex..., in: url)),
                      let a = Range(m.range(at: 1), in: url), let b = Range(m.range(at: 2), in: url) else { return nil }
                return pair(url[a], url[b])
            }
            let number = #"(-?\d{1,3}(?:\.\d+)?)"#
            if let pin = first("!3d" + number + "!4d" + number) { return pin }
            if let lat = first("[?&]mlat=" + number + "&(?:.*&)?mlon=" + number) { return lat }
            for key in ["q", "query", "ll", "sll", "coordinate", "center", "daddr", "destination", "cp"] {
                if let c = first("[?&]" + key + "=(?:loc:)?" + number + "\\s*[,~ +]\\s*" + number) { return c }
            }
            if let c = first("@" + number + "," + number) { return c }
            return first("#map=\\d+(?:\\.\\d+)?/" + number + "/" + number)
        }

        /// The id of the record a dropdown's option names (`Redland (bs6)`), or that `answer`
        /// names by its name, its id, or its address on the site.
        public static func record(_ answer: String, among records: [(id: String, name: String?)]) -> String {
            let text = answer.trimmingCharacters(in: .whitespaces)
            if text.hasSuffix(")"), let open = text.range(of: " (", options: .backwards) {
                let id = String(text[open.upperBound..<text.index(before: text.endIndex)])
                if records.contains(where: { $0.id == id }) { return id }
            }
            let folded = fold(text)
            if let named = records.first(where: { $0.name.map(fold) == folded || $0.id.lowercased() == folded }) { return named.id }
            return Scaffold.trimmedID(text)
        }

        /// The member an issue is from: the one whose `github` is its author's login.
        static func member(login: String, content: Content) -> Member? {
            let login = login.lowercased()
            return login.isEmpty ? nil : content.members.first { $0.github?.lowercased() == login }
        }

        /// Lower case, without accents, single spaces: how names are compared.
        static func fold(_ text: String) -> String {
            text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }

        static func listed(_ names: [String]) -> String {
            let shown = names.prefix(6).map { "'\($0)'" }
            return shown.joined(separator: ", ") + (names.count > shown.count ? " and \(names.count - shown.count) more" : "")
        }
    }
}
