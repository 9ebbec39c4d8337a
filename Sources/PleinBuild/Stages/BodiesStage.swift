import PleinCore
import PleinModel
import PleinRender

/// The bodies stage: every Markdown body rendered to HTML. Only bodies whose text or page
/// changed since the last build (in this process, or kept in the build store) are rendered again.
struct BodiesStage {
    var bodies = Bodies()
    /// A fingerprint of what each body was made from (its text and its page), by source file.
    var digests: [String: [UInt8]] = [:]
    /// The jobs the digests were made from in this process (`serve`): a body whose text and page
    /// are as they were keeps its digest without hashing it again.
    var jobs: [String: Bodies.Job] = [:]

    /// The bodies of `model`, and the files whose body changed (new, edited or gone).
    func run(_ model: SiteModel, threadKeys: ThreadKeys?) -> (next: BodiesStage, changed: Set<String>) {
        let routes = Routes(baseURL: model.site.baseURL)
        let all = Bodies.jobs(model, routes: routes, threadKeys: threadKeys)
        let current = parallelMap(all) { [jobs, digests] job in
            if let old = jobs[job.file], old.markdown == job.markdown, old.page == job.page, let digest = digests[job.file] { return digest }
            return Self.digest(job)
        }
        var index: [String: [UInt8]] = [:]
        for (job, digest) in zip(all, current) { index[job.file] = digest }
        let stale = zip(all, current).filter { job, digest in digests[job.file] != digest }.map(\.0)
        var next = bodies
        next.merge(Bodies.render(stale, routes: routes))
        next.keep(Set(index.keys))
        let changed = Set(stale.map(\.file)).union(Set(digests.keys).subtracting(index.keys))
        return (BodiesStage(bodies: next, digests: index, jobs: Dictionary(all.map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })), changed)
    }

    /// After a model made again piece by piece (`ModelChange`, the rest of the model as it was):
    /// the bodies of those pieces only are looked at again, in place. Returns the files whose
    /// body changed.
    mutating func update(_ model: SiteModel, change: ModelChange, threadKeys: ThreadKeys?) -> Set<String> {
        let routes = Routes(baseURL: model.site.baseURL)
        var stale: [Bodies.Job] = []
        for job in Self.jobs(model, change: change, threadKeys: threadKeys) {
            if let old = jobs[job.file], old.markdown == job.markdown, old.page == job.page, digests[job.file] != nil { continue }
            let digest = Self.digest(job)
            if digests[job.file] != digest { stale.append(job) }
            digests[job.file] = digest
            jobs[job.file] = job
        }
        bodies.merge(Bodies.render(stale, routes: routes))
        for file in change.removedFiles {
            digests.removeValue(forKey: file)
            jobs.removeValue(forKey: file)
        }
        bodies.remove(change.removedFiles)
        return Set(stale.map(\.file)).union(change.removedFiles)
    }

    /// The bodies of the pieces a model made piece by piece made again.
    static func jobs(_ model: SiteModel, change: ModelChange, threadKeys: ThreadKeys?) -> [Bodies.Job] {
        let routes = Routes(baseURL: model.site.baseURL)
        var all = change.reports.sorted().compactMap { model.reports[$0] }.flatMap { Bodies.jobs(report: $0, routes: routes) }
        all += change.members.sorted().compactMap { model.members[$0] }.flatMap { Bodies.jobs(member: $0, routes: routes) }
        all += change.groups.sorted().compactMap { model.groups[$0] }.flatMap { Bodies.jobs(group: $0, routes: routes) }
        all += model.locations.filter { change.locations.contains($0.id) }.flatMap { Bodies.jobs(location: $0, routes: routes) }
        if change.pages { all += model.pages.flatMap { Bodies.jobs(page: $0, routes: routes) } }
        if let threadKeys {
            all += model.threads.filter { change.threads.contains($0.id) }.flatMap { Bodies.jobs(thread: $0, routes: routes, keys: threadKeys) }
        }
        return all
    }

    static func digest(_ job: Bodies.Job) -> [UInt8] {
        Hashing.sha256(Array(job.markdown.utf8) + [0] + Array(job.page.utf8))
    }
}
