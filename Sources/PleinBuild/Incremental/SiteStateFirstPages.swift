import PleinCore
import PleinModel
import PleinRender

extension SiteState {
    /// The pages of the edited records (`files`), which `serve` renders and serves first: those
    /// that read an edited text, or the text of the report a reply is to, and a new report's,
    /// never rendered before.
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
            default: break
            }
        }
        // (Of the last outputs, only when the edit took no record out: a deleted report's
        // page is not rendered. A record's own pages are there while it is.)
        let readers = !piecesOnly.removedFiles.isEmpty ? []
            : last.outputs(keys: last.graph.outputs(reading: Set(texts.map { Dependency.body($0).key }), keepingReaders: true))
        return readers + new
    }
}
