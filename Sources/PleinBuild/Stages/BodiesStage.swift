import PleinCore
import PleinModel
import PleinRender

/// The bodies stage: every Markdown body rendered to HTML. Only bodies whose text or page
/// changed since the last build are rendered again.
struct BodiesStage {
    /// The bodies and the jobs they were made from (what the next build compares with).
    var bodies = Bodies()
    var jobs: [String: Bodies.Job] = [:]

    /// The bodies of `model`, and the files whose body changed (new, edited or gone).
    func run(_ model: SiteModel, threadKeys: ThreadKeys?) -> (next: BodiesStage, changed: Set<String>) {
        let routes = Routes(baseURL: model.site.baseURL)
        let all = Bodies.jobs(model, routes: routes, threadKeys: threadKeys)
        var index: [String: Bodies.Job] = [:]
        for job in all { index[job.file] = job }
        let stale = all.filter { job in jobs[job.file].map { $0.markdown != job.markdown || $0.page != job.page } ?? true }
        var next = bodies
        next.merge(Bodies.render(stale, routes: routes))
        next.keep(Set(index.keys))
        let changed = Set(stale.map(\.file)).union(Set(jobs.keys).subtracting(index.keys))
        return (BodiesStage(bodies: next, jobs: index), changed)
    }
}
