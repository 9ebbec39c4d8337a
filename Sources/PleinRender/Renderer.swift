import PleinCore
public import PleinModel

/// Renders the outputs of a site: which outputs there are, and for each the renderer of its
/// kind (`Pages/`, `Feeds/`, `Maps/`). Rendering an output is a pure function of the inputs.
public struct Renderer: Sendable {
    let inputs: RenderInputs

    public init(model: SiteModel, theme: Theme, bodies: Bodies, images: ImageCatalog, options: RenderOptions = .init(),
                fragments: (any FragmentMemory)? = nil) {
        self.init(source: InMemoryModel(model: model, bodies: bodies, images: images, fragments: fragments), theme: theme, options: options)
    }

    /// A renderer that reads the model's pieces from `source` as its outputs need them (it can
    /// render any output, but not list them all: see `outputs`).
    public init(source: any ModelSource, theme: Theme, options: RenderOptions = .init()) {
        inputs = RenderInputs(shared: .init(source: source, theme: theme, options: options))
    }

    /// Every output of the site (of a renderer with the whole model in memory).
    public func outputs() -> [OutputID] {
        guard let model = inputs.shared.view.model else { preconditionFailure("only a model in memory lists every output") }
        let features = MapFeatures(inputs: inputs)
        // Album maps depend on the photos' EXIF, which only the image catalog knows.
        let albumMaps = model.groupOrder.flatMap { model.groups[$0]!.albums }.filter(features.albumHasMap).map { OutputID.geoJSON(.album($0.key)) }
        // Threads only with a secret; they are listed nowhere else.
        let threads = inputs.options.threadKeys == nil
            ? [] : model.threads.map { OutputID.thread($0.id) }
        let all = OutputID.all(model, sitemapSplit: inputs.options.sitemapSplit) + albumMaps + threads + (inputs.options.search ? [.search] : [])
        // A members-only group's feeds, calendars and data are not published (its pages are, sealed).
        let sealing = inputs.options.sealing
        return sealing.isEmpty ? all : all.filter { !$0.isLeftOut(sealing: sealing) }
    }

    /// The file an output is written to (`Routes.path(of:)`, the one table of where outputs live).
    public func file(of id: OutputID) -> String { inputs.routes.file(inputs.routes.path(of: id)) }

    /// The pieces of the model the outputs rendered so far needed and did not find (a build
    /// store's row missing or damaged): when there are any, those outputs are not right.
    public var missingPieces: [String] { inputs.shared.view.missing.all }

    /// What the site's search index holds, by shard (nothing without `RenderOptions.search`).
    public func searchShards() -> [SearchShard] {
        inputs.options.search ? SearchRecords(inputs: inputs).shards() : []
    }

    /// The search index's shards, each with what its records read (nothing without
    /// `RenderOptions.search`).
    public func searchShardsTracked() -> [(shard: SearchShard, reads: Set<Dependency>)] {
        inputs.options.search ? SearchRecords(inputs: inputs).shards(recording: true) : []
    }

    /// The names of the search index's shards, in the order the search page merges them.
    public func searchShardNames() -> [String] {
        inputs.options.search ? SearchRecords(inputs: inputs).shardNames() : []
    }

    /// One shard of the search index and what its records read; nil when there is none of
    /// that name.
    public func searchShardTracked(named name: String) -> (shard: SearchShard, reads: Set<Dependency>)? {
        guard inputs.options.search else { return nil }
        let (shard, reads) = SearchRecords(inputs: inputs).shard(named: name, recording: true)
        return shard.map { ($0, reads) }
    }

    /// Renders one output and tells what it read.
    public func renderTracked(_ id: OutputID) -> (OutputFile, Set<Dependency>) {
        let (files, dependencies) = renderTracked(batch: [id])
        return (files[0], dependencies)
    }

    /// Renders outputs together and tells what they read, all of them.
    public func renderTracked(batch ids: [OutputID]) -> ([OutputFile], Set<Dependency>) {
        let recorder = DependencyRecorder()
        // Every output reads the interface texts or an asset's name (feed titles, page frames).
        recorder.record(.theme)
        var tracked = inputs
        tracked.recorder = recorder
        let files = Batch(inputs: tracked).render(ids)
        return (files, recorder.dependencies)
    }

    /// Renders one output.
    public func render(_ id: OutputID) -> OutputFile {
        Batch(inputs: inputs).render([id])[0]
    }

    /// Renders outputs together: an Atom feed and its JSON Feed twin choose and build their
    /// entries once (see `OutputID.batches`).
    public func render(batch ids: [OutputID]) -> [OutputFile] {
        Batch(inputs: inputs).render(ids)
    }
}

/// Outputs rendered together, sharing the feeds they choose.
private struct Batch: Rendering {
    let inputs: RenderInputs

    func render(_ ids: [OutputID]) -> [OutputFile] {
        // The feeds made so far, by their Atom output.
        var feeds: [OutputID: Feed] = [:]
        let selection = FeedSelection(inputs: inputs)
        return ids.map { id in
            render(id) { key in
                if let feed = feeds[key] { return feed }
                guard case .atom(let fid) = key else { preconditionFailure("feeds are kept by their Atom output") }
                let feed = selection.feed(fid)
                feeds[key] = feed
                return feed
            }
        }
    }

    /// `feed` gives the feed of an Atom output, made once for it and its JSON Feed twin. A page
    /// of a members-only group is rendered, then sealed into the page that unlocks it.
    func render(_ id: OutputID, feed: (OutputID) -> Feed) -> OutputFile {
        // A thread's page, sealed under the key its link carries.
        if case .thread(let tid) = id, let keys = inputs.options.threadKeys {
            return SealedPage(inputs: inputs).render(sealedOpen(id, feed: feed), kind: id.kind, group: keys.sealing(for: tid), byLink: true)
        }
        guard let group = id.sealedGroup(in: inputs.options.sealing) else { return renderOpen(id, feed: feed) }
        return SealedPage(inputs: inputs).render(sealedOpen(id, feed: feed), kind: id.kind, group: group)
    }

    /// The open page of an output that is to be sealed (`RenderInputs.sealed`).
    private func sealedOpen(_ id: OutputID, feed: (OutputID) -> Feed) -> OutputFile {
        var inputs = inputs
        inputs.sealed = true
        return Batch(inputs: inputs).renderOpen(id, feed: feed)
    }

    func renderOpen(_ id: OutputID, feed: (OutputID) -> Feed) -> OutputFile {
        let writer = FeedWriter(inputs: inputs)
        switch id {
        case .home: return framed(HomePage(inputs: inputs))
        case .members: return framed(MemberListPage(inputs: inputs))
        case .member(let mid): return framed(MemberPage(inputs: inputs, id: mid))
        case .progress(let mid): return framed(ProgressPage(inputs: inputs, member: mid))
        case .divers: return framed(DiversPage(inputs: inputs))
        case .groups: return framed(GroupListPage(inputs: inputs))
        case .group(let gid): return framed(GroupPage(inputs: inputs, id: gid))
        case .leaderboard(let gid): return framed(LeaderboardPage(inputs: inputs, id: gid))
        case .album(let key): return framed(AlbumPage(inputs: inputs, key: key))
        case .photo(let key, let slug): return framed(PhotoPage(inputs: inputs, key: key, slug: slug))
        case .areas: return framed(AreaListPage(inputs: inputs))
        case .area(let aid): return framed(AreaPage(inputs: inputs, id: aid))
        case .report(let rid): return framed(ReportPage(inputs: inputs, id: rid))
        case .locations: return framed(LocationListPage(inputs: inputs))
        case .location(let lid): return framed(LocationPage(inputs: inputs, id: lid))
        case .now: return framed(NowPage(inputs: inputs))
        case .notFound: return framed(NotFoundPage(inputs: inputs))
        case .thread(let tid): return framed(ThreadPage(inputs: inputs, id: tid))
        case .atom(let fid): return writer.atom(feed(.atom(fid)))
        case .jsonFeed(let fid): return writer.json(feed(.atom(fid)))
        case .sitemap: return Sitemap(inputs: inputs).render()
        case .sitemapPart(let part): return Sitemap(inputs: inputs).render(part)
        case .robots: return Robots(inputs: inputs).render()
        case .cmsPage: return CMSPage(inputs: inputs).render()
        case .cmsConfig: return CMSConfig(inputs: inputs).render()
        case .manifest: return AppManifest(inputs: inputs).render()
        case .serviceWorker: return ServiceWorker(inputs: inputs).render()
        case .offline: return framed(OfflinePage(inputs: inputs))
        case .leaderboardJSON(let gid): return LeaderboardJSON(inputs: inputs, id: gid).render()
        case .diversIndex: return DiversIndex(inputs: inputs).render()
        case .geoJSON(let map): return GeoJSONFile(inputs: inputs, id: map).render()
        case .calendar(let calendar): return CalendarFile(inputs: inputs, id: calendar).render()
        case .events: return framed(EventListPage(inputs: inputs))
        case .search: return framed(SearchPage(inputs: inputs))
        case .page(let pid): return framed(OwnPage(inputs: inputs, id: pid))
        case .groupEvent(let key): return framed(GroupEventPage(inputs: inputs, key: key))
        }
    }

    func framed(_ renderer: some PageRenderer) -> OutputFile { PageFrame(inputs: inputs).render(renderer.page()) }
}
