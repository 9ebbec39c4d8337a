import PleinCore
import PleinText

/// Links from the site into its CMS at `/admin/` (`cms` in site.yaml): a new reply to a report,
/// a new report in an area, an album to add photos to, each with what the page knows filled in
/// (both CMSs take a new entry's field values from the address's query).
struct CMSLinks: Rendering {
    let inputs: RenderInputs

    /// The CMS's page, when the site publishes one.
    var page: String? { CMSConfig.isPublished(site) ? routes.url(routes.cmsPage) : nil }

    func newReply(area: String, report: String) -> String? {
        newEntry(CMSConfig.Collection.replies, ["area": area, "report": report])
    }

    func newReport(area: String?) -> String? {
        newEntry(CMSConfig.Collection.reports, area.map { ["area": $0] } ?? [:])
    }

    /// The album's entry in the CMS, where members add photos to its list (Sveltia CMS's
    /// address of an entry: the collection's path with the entry's folders filled in).
    func album(group: String, album: String) -> String? {
        guard let page else { return nil }
        return page + "#/collections/\(CMSConfig.Collection.albums.rawValue)/entries/\(group)/albums/\(album)/index"
    }

    func newEntry(_ collection: CMSConfig.Collection, _ fields: KeyValuePairs<String, String>) -> String? {
        guard let page else { return nil }
        let query = fields.map { "\($0.key)=\(TextCut.percentEncode($0.value))" }.joined(separator: "&")
        return page + "#/collections/\(collection.rawValue)/new" + (query.isEmpty ? "" : "?" + query)
    }
}
