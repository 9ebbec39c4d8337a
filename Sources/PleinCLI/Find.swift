import ArgumentParser
import PleinModel
import Foundation
import PleinBuild
import PleinCore

struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Searches the content from the terminal.",
        subcommands: [Divers.self]
    )

    struct Divers: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Finds divers near a place, nearest first.",
            discussion: "Homes are coarsened to the site's privacy grid first, as on the /divers/ page."
        )

        @Option(parsing: .unconditional, help: "A place from places.yaml, or lat,lon.")
        var near: String

        @Option(help: "Radius in kilometres (5 to 100).")
        var within: Double = 25

        @OptionGroup var location: ContentLocation

        func validate() throws {
            guard (5...100).contains(within) else { throw ValidationError("--within must be between 5 and 100 km") }
        }

        func run() throws {
            let checked = Pipeline.check(content: location.folder)
            if checked.diagnostics.hasErrors {
                let formatter = DiagnosticFormatter(sources: checked.sources, color: Terminal.colorErrors)
                Terminal.error(formatter.report(checked.diagnostics.filter { $0.severity == .error }))
                throw ExitCode(1)
            }
            let model = ModelBuilder.build(checked.content)
            guard let point = DiverSearch.resolve(near, places: model.places) else {
                let closest = Suggestions.ranked(near, in: model.places.map(\.name), count: 5)
                throw UsageError(message: "unknown place '\(near)'; places with a similar name: \(closest.joined(separator: ", ")) (or give lat,lon)")
            }
            let results = DiverSearch.search(model, near: point, within: within)
            let radius = within == within.rounded() ? String(Int(within)) : String(within)
            print("\(results.count) diver\(results.count == 1 ? "" : "s") within \(radius) km of \(near):")
            let rows = results.map { r -> [String] in
                let m = model.members[r.member]!
                return [
                    m.name, m.diving?.certification ?? "", m.diving?.dives.map { "\($0) dives" } ?? "",
                    String(format: "%.1f km", r.kilometres),
                ]
            }
            let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for (i, row) in rows.enumerated() {
                let cells = row.enumerated().map { column, cell in
                    column == 3 ? String(repeating: " ", count: widths[column] - cell.count) + cell
                        : cell + String(repeating: " ", count: widths[column] - cell.count)
                }
                print(String(format: "%3d  ", i + 1) + cells.joined(separator: "  "))
            }
        }
    }
}
