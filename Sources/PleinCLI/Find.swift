import ArgumentParser
import PleinModel
import Foundation
import PleinBuild
import PleinCore
import PleinRender

struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Searches the content from the terminal.",
        subcommands: [Divers.self, Threads.self]
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

    /// `plein find threads`: every thread's full link, for its participants.
    struct Threads: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints the full link of every message thread, for its participants.",
            discussion: """
                A thread's page is encrypted under a key that its link carries after '#': give each link to the \
                thread's participants only. Needs the build's secret (PLEIN_SECRET or --secret-file).
                """
        )

        @OptionGroup var site: SiteOptions

        func run() throws {
            let checked = Pipeline.check(content: site.content)
            guard let secret = try site.secret(), let keys = ThreadKeys(secret: secret) else {
                throw UsageError(message: "threads are published only with the build's secret: set PLEIN_SECRET or pass --secret-file")
            }
            let routes = Routes(baseURL: site.baseURL ?? checked.content.site.baseURL)
            for thread in checked.content.threads.sorted(by: { $0.id < $1.id }) {
                print("\(thread.id)\t\(thread.participants.map(\.value).joined(separator: ", "))\t"
                      + routes.absolute(routes.thread(keys.key(for: thread.id))) + "#" + keys.fragment(for: thread.id))
            }
        }
    }
}
