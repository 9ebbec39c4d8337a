import Foundation
public import PleinModel
public import PleinCore
public import PleinMarkdown

/// Every Markdown body of the site rendered once, by source file, before pages are made.
public struct Bodies: Sendable {
    private var rendered: [String: RenderedMarkdown]

    public init(rendered: [String: RenderedMarkdown] = [:]) {
        self.rendered = rendered
    }

    public subscript(file: String) -> RenderedMarkdown? { rendered[file] }

    /// One body to render: its source file, its text and the page it appears on (for making its
    /// relative links absolute in feeds).
    public struct Job: Sendable {
        public let file: String
        public let markdown: String
        public let page: String
    }

    /// The bodies of every published record; messages only when their threads are rendered.
    public static func jobs(_ model: SiteModel, routes: Routes, threadKeys: ThreadKeys? = nil) -> [Job] {
        var jobs: [Job] = []
        for id in model.memberOrder { jobs += self.jobs(member: model.members[id]!, routes: routes) }
        for gid in model.groupOrder { jobs += self.jobs(group: model.groups[gid]!, routes: routes) }
        for rid in model.reportOrder { jobs += self.jobs(report: model.reports[rid]!, routes: routes) }
        for l in model.locations { jobs += self.jobs(location: l, routes: routes) }
        jobs += model.pages.flatMap { self.jobs(page: $0, routes: routes) }
        if let threadKeys {
            for thread in model.threads { jobs += self.jobs(thread: thread, routes: routes, keys: threadKeys) }
        }
        return jobs
    }

    /// The body of a member's page (none for a member who left: their page has no bio).
    public static func jobs(member m: MemberModel, routes: Routes) -> [Job] {
        m.left == nil ? [Job(file: m.file, markdown: m.bio.markdown, page: routes.member(m.id))] : []
    }

    /// The bodies of a group: its own, and its albums', events' and goals'.
    public static func jobs(group g: GroupModel, routes: Routes) -> [Job] {
        var jobs = [Job(file: g.file, markdown: g.body.markdown, page: routes.group(g.id))]
        for a in g.albums { jobs.append(Job(file: a.file, markdown: a.body.markdown, page: routes.album(a.key))) }
        for e in g.events { jobs.append(Job(file: e.file, markdown: e.body.markdown, page: routes.groupEvent(e.key))) }
        for goal in g.openGoals + g.completedGoals {
            jobs.append(Job(file: goal.file, markdown: goal.body.markdown, page: routes.group(g.id)))
        }
        return jobs
    }

    public static func jobs(page p: PageModel, routes: Routes) -> [Job] {
        [Job(file: p.file, markdown: p.body.markdown, page: routes.page(p.id))]
    }

    public static func jobs(location l: LocationModel, routes: Routes) -> [Job] {
        [Job(file: l.file, markdown: l.body.markdown, page: routes.location(l.id))]
    }

    /// The bodies of a thread's messages, on its page (whose address its key makes).
    public static func jobs(thread: ThreadModel, routes: Routes, keys: ThreadKeys) -> [Job] {
        let page = routes.thread(keys.key(for: thread.id))
        return thread.messages.map { Job(file: $0.file, markdown: $0.body.markdown, page: page) }
    }

    /// The bodies of a report: its own and its replies'.
    public static func jobs(report r: ReportModel, routes: Routes) -> [Job] {
        let page = routes.report(r.id)
        return [Job(file: r.file, markdown: r.body.markdown, page: page)] + r.replies.map { Job(file: $0.file, markdown: $0.body.markdown, page: page) }
    }

    /// Renders `jobs` on all cores, in batches of texts (`Markdown.render(_:)`: the threads wait
    /// for each other in cmark-gfm once a batch).
    public static func render(_ jobs: [Job], routes: Routes) -> Bodies {
        let batch = 24
        let batches = stride(from: 0, to: jobs.count, by: batch).map { jobs[$0..<min($0 + batch, jobs.count)] }
        let results = parallelMap(batches) { batch in
            let texts = batch.map { job in
                let page = routes.absolute(job.page)
                return Markdown.Text(job.markdown, headingOffset: 1, idPrefix: Slug.make(job.file), absoluteURL: { resolve($0, against: page) })
            }
            return Array(zip(batch.map(\.file), Markdown.render(texts)))
        }
        return Bodies(rendered: Dictionary(results.joined(), uniquingKeysWith: { a, _ in a }))
    }

    public mutating func merge(_ other: Bodies) {
        rendered.merge(other.rendered) { _, new in new }
    }

    /// Drops the bodies of files not in `files`.
    public mutating func keep(_ files: Set<String>) {
        rendered = rendered.filter { files.contains($0.key) }
    }

    /// Drops the bodies of these files.
    public mutating func remove(_ files: Set<String>) {
        for file in files { rendered.removeValue(forKey: file) }
    }
}

/// Resolves a link target against an absolute page URL, as a browser would.
public func resolve(_ target: String, against page: String) -> String {
    if target.hasPrefix("#") { return page + target }
    if target.utf8.contains(58), let colon = target.firstIndex(of: ":"),
       target[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) {
        return target  // already absolute (https:, mailto:, …)
    }
    // (On bytes: this runs for every link of every text.)
    let bytes = page.utf8
    guard let colon = bytes.indices.first(where: { bytes[$0] == 58 && bytes[bytes.index(after: $0)...].starts(with: "//".utf8) })
    else { return target }
    let schemeEnd = colon..<bytes.index(colon, offsetBy: 3)
    let hostEnd = bytes[schemeEnd.upperBound...].firstIndex(of: 47) ?? page.endIndex
    let origin = String(page[..<hostEnd])
    if target.hasPrefix("//") { return String(page[..<schemeEnd.lowerBound]) + ":" + target }
    if target.hasPrefix("/") { return origin + target }
    var directory = String(page[hostEnd...])
    if let slash = directory.lastIndex(of: "/") { directory = String(directory[...slash]) } else { directory = "/" }
    var parts = directory.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let (path, suffix) = splitSuffix(target)
    var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    let trailingSlash = path.hasSuffix("/") || path.hasSuffix("/.") || path.hasSuffix("/..") || path == "." || path == ".."
    if segments.last == "" { segments.removeLast() }
    for segment in segments {
        switch segment {
        case ".", "": continue
        case "..": if !parts.isEmpty { parts.removeLast() }
        default: parts.append(segment)
        }
    }
    var result = origin + "/" + parts.joined(separator: "/")
    if trailingSlash, !parts.isEmpty { result += "/" }
    return result + suffix
}

private func splitSuffix(_ target: String) -> (String, String) {
    guard let index = target.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return (target, "") }
    return (String(target[..<index]), String(target[index...]))
}
