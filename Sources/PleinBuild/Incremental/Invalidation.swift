import PleinModel
import PleinRender

/// Which outputs an edit touched: those that read a piece of the model, a body or an image that
/// changed, and those whose template (or a partial it uses) changed.
enum Invalidation {
    /// The pieces of the model that differ between two builds.
    static func changes(from a: SiteModel, to b: SiteModel) -> Set<Dependency> {
        var changed: Set<Dependency> = []
        func compare<T: Equatable>(_ x: [String: T], _ y: [String: T], _ make: (String) -> Dependency) {
            for key in Set(x.keys).union(y.keys) where x[key] != y[key] { changed.insert(make(key)) }
        }
        func byID<T>(_ items: [T], _ id: (T) -> String) -> [String: T] {
            Dictionary(items.map { (id($0), $0) }, uniquingKeysWith: { x, _ in x })
        }
        compare(a.members, b.members, Dependency.member)
        compare(a.groups, b.groups, Dependency.group)
        compare(a.reports, b.reports, Dependency.report)
        compare(a.reports.mapValues(ReportTimes.init), b.reports.mapValues(ReportTimes.init), Dependency.reportTimes)
        compare(a.members.mapValues(\.joined), b.members.mapValues(\.joined), Dependency.memberJoined)
        compare(a.reports.mapValues(ReportHeadline.init), b.reports.mapValues(ReportHeadline.init), Dependency.reportHeadline)
        compare(byID(a.areas, \.id), byID(b.areas, \.id), Dependency.area)
        compare(byID(a.locations, \.id), byID(b.locations, \.id), Dependency.location)
        compare(byID(a.threads, \.id), byID(b.threads, \.id), Dependency.thread)
        compare(Dictionary(grouping: a.sessions, by: \.member), Dictionary(grouping: b.sessions, by: \.member), Dependency.sessions)
        if a.memberOrder != b.memberOrder { changed.insert(.memberOrder) }
        if a.groupOrder != b.groupOrder { changed.insert(.groupOrder) }
        if a.reportOrder != b.reportOrder { changed.insert(.reportOrder) }
        if a.areas.map(\.id) != b.areas.map(\.id) { changed.insert(.areaOrder) }
        if a.locations.map(\.id) != b.locations.map(\.id) { changed.insert(.locationOrder) }
        if a.places != b.places { changed.insert(.places) }
        if a.asOf != b.asOf { changed.insert(.asOf) }
        if a.today != b.today { changed.insert(.today) }
        return changed
    }

    /// The images and videos whose published files differ.
    static func changes(from a: ImageCatalog, to b: ImageCatalog) -> Set<Dependency> {
        let (x, y) = (a.items, b.items)
        return Set(Set(x.keys).union(y.keys).filter { x[$0] != y[$0] }.map { Dependency.image($0) })
    }

    /// The outputs to render again: new ones, those that read something in `changed`, and those
    /// whose template uses one of `templates`.
    static func outputs(_ ids: [OutputID], last: [OutputID: Set<Dependency>], changed: Set<Dependency>, templates: Set<String>,
                        theme: Theme) -> [OutputID] {
        let affected = templates.isEmpty ? Set<String>() : Set(theme.templates.keys.filter { !theme.closure(of: $0).isDisjoint(with: templates) })
        return ids.filter { id in
            guard let dependencies = last[id] else { return true }
            if let template = id.template, affected.contains(template) { return true }
            return !dependencies.isDisjoint(with: changed)
        }
    }
}
