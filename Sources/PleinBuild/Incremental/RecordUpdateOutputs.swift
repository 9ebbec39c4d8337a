import PleinCore
import PleinModel
import PleinRender

// What an update reaches beyond its records: the members whose lists its new or deleted reports
// change, and the outputs it adds or takes out.
extension RecordUpdate {
    /// The members whose lists a new or deleted report or reply changes: its author; for a
    /// reply, every author of a reply to the same report, before and after.
    func authors(_ loaded: Loaded) -> Set<String> {
        var authors: Set<String> = []
        for path in added.union(removed) {
            let id: String
            switch FileRole.of(path) {
            case .report(let area, let name, _), .reply(let area, let name, _): id = area + "/" + name
            default: continue
            }
            for content in [loaded.before, loaded.content] {
                guard let report = content.reportPosition(of: id).map({ content.reports[$0] }) else { continue }
                let replies = FileRole.of(path).isReport ? [] : report.replies.map(\.author.value)
                authors.formUnion(([report.author.value] + replies).compactMap(content.memberIndex.resolve))
            }
        }
        return authors
    }

    /// The outputs the edit adds (a new report's page; a report's reply feed at its first reply;
    /// a new or deleted event's page and calendar; a new member's page and feeds; a new page)
    /// and those it takes out (a deleted report's page; a reply feed whose last reply is
    /// deleted), when it changes which outputs there are only so; nil when it changes them
    /// otherwise (an event report's calendars, a group's first or last event's; check-ins of a
    /// member who had none).
    func outputChanges(_ change: ModelChange, _ loaded: Loaded, _ model: SiteModel,
                       photoPages: (new: [OutputID], gone: [OutputID])) -> (new: [OutputID], gone: [OutputID])? {
        // (A photo replaced by one with a position, or without, may bring its album's map or take it.)
        guard change.outputsMayChange || !photoPages.new.isEmpty || !photoPages.gone.isEmpty else { return ([], []) }
        guard change.sessions == nil else { return nil }
        var ids: Set<String> = []
        var (new, gone): ([OutputID], [OutputID]) = photoPages
        // (New events of groups that are not published, and other files: with none of the
        // latter, no output is new.)
        var (unpublished, others) = (0, 0)
        for path in added.union(removed).subtracting(photos) {
            switch FileRole.of(path) {
            case .report(let area, let name, _), .reply(let area, let name, _):
                ids.insert(area + "/" + name)
                others += 1
            case .event(let group, let id) where added.contains(path):
                // A new event of a group that has others: its page and its calendar (the group's,
                // its members' and the site's calendars were there, and read the group). Of a
                // group the model does not hold (not published), nothing.
                guard let owner = model.groups[group] else {
                    unpublished += 1
                    continue
                }
                guard owner.events.count > 1, let event = owner.events.first(where: { $0.id == id }) else { return nil }
                if model.site.has(.groups) { new += [.groupEvent(event.key), .calendar(.groupEvent(event.key))] }
                others += 1
            case .page(let id) where added.contains(path):
                guard model.pages.contains(where: { $0.id == id }) else { return nil }
                new.append(.page(id))
                others += 1
            case .event(let group, let id) where removed.contains(path):
                // A deleted event of a group that has others: its page and its calendar go.
                guard let owner = model.groups[group] else {
                    unpublished += 1
                    continue
                }
                guard !owner.events.isEmpty else { return nil }
                let key = GroupEventKey(group: group, event: id)
                if model.site.has(.groups) { gone += [.groupEvent(key), .calendar(.groupEvent(key))] }
                others += 1
            case .goal:
                // (A group's new or deleted goal changes its pieces, not which outputs there are.)
                others += 1
            case .member(let id) where added.contains(path):
                // A new member: their own outputs (the lists of members read the order of members).
                guard model.members[id] != nil else { return nil }
                new += OutputID.ofMember(id, model)
                others += 1
            default: return nil
            }
        }
        if unpublished > 0, others == 0, new.isEmpty, gone.isEmpty { return ([], []) }
        for id in ids.sorted() {
            let old = loaded.before.reportPosition(of: id).map { loaded.before.reports[$0] }
            let now = model.reports[id]
            guard old?.starts == nil, now?.starts == nil else { return nil }
            let (had, has) = (old.map { !$0.replies.isEmpty } ?? false, now.map { !$0.replies.isEmpty } ?? false)
            switch (old != nil, now != nil) {
            case (false, true): new.append(.report(id))
            case (true, false): gone.append(.report(id))
            default: break
            }
            if has && !had { new.append(.atom(.report(id))) }
            if had && !has { gone.append(.atom(.report(id))) }
        }
        // (A sitemap that becomes an index of parts, or one file again, is other outputs.)
        let reports = model.reportOrder.count
        let before = reports - new.count { if case .report = $0 { true } else { false } } + gone.count { if case .report = $0 { true } else { false } }
        guard SitemapPart.splits(reports: reports, past: options.sitemapSplit) == SitemapPart.splits(reports: before, past: options.sitemapSplit) else { return nil }
        return new.isEmpty && gone.isEmpty ? nil : (new, gone)
    }
}
