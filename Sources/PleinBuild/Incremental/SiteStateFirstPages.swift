import PleinCore
import PleinModel
import PleinRender

extension SiteState {
    /// The pages of the edited records (`files`), which `serve` renders and serves first: those
    /// that read an edited text, or the text of the report a reply is to, and a new report's,
    /// member's, event's or page's, never rendered before.
    mutating func editedRecordsPages(_ files: Set<String>, change piecesOnly: ModelChange, model: SiteModel) -> [OutputID] {
        var texts = files
        var new: [OutputID] = []
        for path in files {
            switch FileRole.of(path) {
            case .reply(let area, let report, _):
                if let position = content.reportPosition(of: area + "/" + report) { texts.insert(content.reports[position].file) }
            case .report(let area, let name, _):
                let id = OutputID.report(area + "/" + name)
                if piecesOnly.reports.contains(area + "/" + name), model.reports[area + "/" + name] != nil, !last.graph.knows(id.key) { new.append(id) }
            case .member(let id):
                // (A new member's page, where the site has members' pages.)
                if piecesOnly.members.contains(id), let page = OutputID.ofMember(id, model).first, !last.graph.knows(page.key) { new.append(page) }
            case .page(let id):
                if piecesOnly.pages, model.pages.contains(where: { $0.id == id }), !last.graph.knows(OutputID.page(id).key) { new.append(.page(id)) }
            case .event(let group, let id):
                if model.site.has(.groups), let event = model.groups[group]?.events.first(where: { $0.id == id }),
                   !last.graph.knows(OutputID.groupEvent(event.key).key) { new.append(.groupEvent(event.key)) }
            default: break
            }
        }
        // (Of the last outputs, only when the edit took no record out: a deleted report's
        // page is not rendered. A record's own pages are there while it is.)
        let readers = !piecesOnly.removedFiles.isEmpty ? []
            : last.outputs(keys: last.graph.outputs(reading: Set(texts.map { Dependency.body($0).key }), keepingReaders: true))
        return readers + new
    }

    /// The fewest outputs `plein serve` hands over at a time while it renders the rest of an
    /// update (fewer are rendered at once).
    static let handedOverAtLeast = 32

    /// Renders all but the last eighth of `rest` (the outputs of an update still to render, when
    /// there are many) an eighth at a time, each taken in and served (`first`) as it is made,
    /// without reloading a page: a new title renders every page, and the one a reader waits for
    /// shows after half of them on average, not after all. The last eighth is left in `rest`.
    mutating func handOver(_ rest: inout [OutputID], stage: RenderStage, into update: inout Update, first: FirstPages) {
        guard rest.count >= 2 * Self.handedOverAtLeast else { return }
        let size = max(Self.handedOverAtLeast, (rest.count + 7) / 8)
        while rest.count > size {
            let (made, _) = stage.run(Array(rest.prefix(size)))
            let taken = last.take(rendered: made, of: nil)
            (update.changed, update.rendered) = (update.changed + taken.changed, update.rendered + taken.rendered)
            rest.removeFirst(size)
            first(last.served, [])
        }
    }
}
