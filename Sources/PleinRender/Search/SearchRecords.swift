import PleinText
import PleinCore
import PleinModel
import PleinMarkdown

/// What the site's search finds: one record per public page worth finding, made from the model
/// (never from the rendered HTML), in shards so that an edit re-indexes only the shard it touched.
///
/// Indexed: reports (with their replies), member profiles, public groups, their albums, photos
/// and events, and study places. Never indexed: unlisted and private groups (the model holds no
/// private ones), message threads, progress pages, and anything shaped like an e-mail address.
public struct SearchRecord: Sendable, Equatable, Encodable {
    /// The page, site-relative with the base path (`/reports/1094/…/`).
    public let url: String
    /// The words to find it by: title first, then the text of the page's main content.
    public let content: String
    /// `title`, `kind`, and `date` as the page shows it with `datetime`, its RFC 3339 form.
    public let meta: [String: String]
    /// `kind`, and where they apply `area`, `category` and `group`: the result page's buttons.
    public let filters: [String: [String]]
    /// `date`: an RFC 3339 time or date, so that text order is time order.
    public let sort: [String: String]
}

/// One index: the reports of one area, or everything else (`community`), or a part of either.
public struct SearchShard: Sendable, Equatable {
    /// A folder name: `community` or `area-<area>`, a part with `~<part>of<parts>` after it.
    public let name: String
    public let records: [SearchRecord]
}

/// The public search index's contents (`Renderer.searchShards`).
struct SearchRecords: Rendering {
    let inputs: RenderInputs

    func shards() -> [SearchShard] {
        shards(recording: false).map(\.shard)
    }

    /// Every shard, in the order of `shardNames`, on every core (at 10,000 reports the areas'
    /// records are most of the work); with `recording`, each with what its records read.
    func shards(recording: Bool) -> [(shard: SearchShard, reads: Set<Dependency>)] {
        parallelMap(shardNames()) { [self] name in
            let (shard, reads) = self.shard(named: name, recording: recording)
            return shard.map { ($0, reads) }
        }.compactMap { $0 }
    }

    /// The shard of this name, nil when the site has none; with `recording`, with what its
    /// records read (the build store's account of which edits make it again).
    func shard(named name: String, recording: Bool) -> (shard: SearchShard?, reads: Set<Dependency>) {
        guard recording else { return (shard(named: name), []) }
        let recorder = DependencyRecorder()
        // (The kinds' names are the interface's texts.)
        recorder.record(.theme)
        var tracked = inputs
        tracked.recorder = recorder
        return (SearchRecords(inputs: tracked).shard(named: name), recorder.dependencies)
    }

    private func shard(named name: String) -> SearchShard? {
        let (base, part) = Self.parts(of: name)
        if base == Self.communityShard {
            let sources = communitySources().filter { source in part.map { Self.bucket(source.key, of: $0.count) == $0.index } ?? true }
            let records = sources.compactMap { $0.make() }
            return records.isEmpty && part == nil ? nil : SearchShard(name: name, records: records)
        }
        guard site.has(.reports), base.hasPrefix(Self.areaPrefix), let area = view.area(String(base.dropFirst(Self.areaPrefix.count))),
              !area.reports.isEmpty else { return nil }
        let ids = area.reports.sorted().filter { id in part.map { Self.bucket(id, of: $0.count) == $0.index } ?? true }
        return SearchShard(name: name, records: ids.compactMap(report))
    }

    /// The community's records before they are made: each with the key that places it in a part
    /// of the community's index, and how it is made (a part makes its own records only).
    private func communitySources() -> [(key: String, make: () -> SearchRecord?)] {
        var community: [(key: String, make: () -> SearchRecord?)] = []
        if site.has(.members) { community += view.memberOrder.map { id in ("member:" + id, { member(id) }) } }
        for group in view.groupOrder.compactMap(view.group) where group.isListed {
            community.append((group.file, { self.group(group) }))
            for album in group.albums {
                community.append((album.file, { self.album(album, in: group) }))
                community += album.photos.indices.map { index in (album.file + "#" + album.photos[index].slug, { photo(index, of: album, in: group) }) }
            }
            if site.has(.groups) { community += group.events.map { event in (event.file, { self.event(event, in: group) }) } }
        }
        if site.has(.study) { community += view.locations.map { location in (location.file, { self.location(location) }) } }
        community += view.pages.map { page in (page.file, { self.page(page) }) }
        return community
    }

    static let communityShard = "community"
    static let areaPrefix = "area-"
    static func areaShard(_ area: String) -> String { areaPrefix + area }

    /// The shards a site of this model has, by name, in the order the search page merges them
    /// (without making their records): the community's, then each area's. Each is cut into parts
    /// of at most `most(records:)` records (`community~3of16`, `area-1094~0of2`), each record
    /// placed by a hash of its key, so that an edit indexes again the part that holds its record
    /// and a build from nothing cuts the same parts: Pagefind takes about a millisecond a record,
    /// which an edit's build waits for.
    func shardNames() -> [String] {
        let community = communitySources().count
        let areas = site.has(.reports) ? view.areas.filter { !$0.reports.isEmpty } : []
        let most = Self.most(records: areas.reduce(community) { $0 + $1.reports.count })
        return (community > 0 ? Self.names(Self.communityShard, records: community, most: most) : [])
            + areas.flatMap { Self.names(Self.areaShard($0.id), records: $0.reports.count, most: most) }
    }

    /// The most records a part holds on a site of `records` records: 128, and on a site of more
    /// than 16,384, as many as keep the parts near 128 in all (every query searches every part:
    /// in Chromium, a part more is a few files more to load for the first query).
    static func most(records: Int) -> Int {
        var most = 128
        while records > most * 128 { most *= 2 }
        return most
    }

    /// The names of the parts of the shard `base` of `records` records: itself, or as many parts
    /// as a power of two that keeps each near `most`.
    static func names(_ base: String, records: Int, most: Int) -> [String] {
        var count = 1
        while (records + count - 1) / count > most { count *= 2 }
        return count == 1 ? [base] : (0..<count).map { "\(base)~\($0)of\(count)" }
    }

    /// A shard's name as its base and, for a part, which of how many.
    static func parts(of name: String) -> (base: String, part: (index: Int, count: Int)?) {
        guard let tilde = name.lastIndex(of: "~") else { return (name, nil) }
        let numbers = name[name.index(after: tilde)...].split(separator: "of")
        guard numbers.count == 2, let index = Int(numbers[0]), let count = Int(numbers[1]), count > 0 else { return (name, nil) }
        return (String(name[..<tilde]), (index, count))
    }

    /// The part of `count` that holds the record of `key`: FNV-1a of its bytes, the same in every run.
    static func bucket(_ key: String, of count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(hash % UInt64(count))
    }

    // MARK: Records

    private func report(_ id: String) -> SearchRecord? {
        guard let report = view.report(id), let area = view.area(report.area) else { return nil }
        var words = [report.title, text(report.file)]
        if let place = report.place { words.append(place) }
        words += report.replies.map { text($0.file) }
        let category = strings["category_\(report.category.rawValue)"]
        return record(url: routes.report(id), kind: "search_kind_report", title: report.title, words: words,
                      date: report.at, filters: ["area": [Names(inputs: inputs).area(area)], "category": [category]])
    }

    private func member(_ id: String) -> SearchRecord? {
        guard let member = view.member(id) else { return nil }
        return record(url: routes.member(id), kind: "search_kind_member", title: member.name,
                      words: [member.name, id, member.nearPlace ?? "", text(member.file)], date: member.joined)
    }

    private func group(_ group: GroupModel) -> SearchRecord {
        record(url: routes.group(group.id), kind: "search_kind_group", title: group.name, words: [group.name, text(group.file)],
               date: nil, filters: ["group": [group.name]])
    }

    private func album(_ album: AlbumModel, in group: GroupModel) -> SearchRecord {
        record(url: routes.album(album.key), kind: "search_kind_album", title: album.title,
               words: [album.title, text(album.file), group.name], date: album.date, filters: ["group": [group.name]])
    }

    private func photo(_ index: Int, of album: AlbumModel, in group: GroupModel) -> SearchRecord {
        let photo = album.photos[index]
        let title = Names(inputs: inputs).photoAlt(album, index)
        return record(url: routes.photo(album.key, photo.slug), kind: "search_kind_photo", title: title,
                      words: [title, album.title], date: album.date, filters: ["group": [group.name]])
    }

    private func event(_ event: GroupEventModel, in group: GroupModel) -> SearchRecord {
        record(url: routes.groupEvent(event.key), kind: "search_kind_event", title: event.title,
               words: [event.title, event.place ?? "", text(event.file), group.name], date: event.starts, filters: ["group": [group.name]])
    }

    private func location(_ location: LocationModel) -> SearchRecord {
        record(url: routes.location(location.id), kind: "search_kind_location", title: location.name,
               words: [location.name, location.address ?? "", text(location.file)], date: nil)
    }

    private func page(_ page: PageModel) -> SearchRecord {
        record(url: routes.page(page.id), kind: "search_kind_page", title: page.title,
               words: [page.title, page.description ?? "", text(page.file)], date: nil)
    }

    private func text(_ file: String) -> String { view.body(file)?.text ?? "" }

    private func record(url path: String, kind key: String, title: String, words: [String], date: Moment?,
                        filters: [String: [String]] = [:]) -> SearchRecord {
        let kind = strings[key]
        var meta = ["title": title, "kind": kind]
        var sort: [String: String] = [:]
        if let date {
            let shown = time(date)
            meta["date"] = shown.text
            meta["datetime"] = shown.iso
            sort["date"] = shown.iso
        }
        var filters = filters
        filters["kind"] = [kind]
        let content = SearchText.withoutAddresses(words.filter { !$0.isEmpty }.joined(separator: "\n"))
        return SearchRecord(url: routes.url(path), content: content, meta: meta.mapValues(SearchText.withoutAddresses),
                            filters: filters, sort: sort)
    }
}

/// Text as the index may hold it.
enum SearchText {
    /// The text with every word shaped like an e-mail address (`name@host.tld`, also inside
    /// brackets or with `mailto:`) left out: the index never holds one.
    static func withoutAddresses(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while !rest.isEmpty {
            let start = rest.firstIndex(where: { !$0.isWhitespace }) ?? rest.endIndex
            out += rest[rest.startIndex..<start]
            rest = rest[start...]
            let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
            let word = rest[rest.startIndex..<end]
            rest = rest[end...]
            if !isAddress(word) { out += word }
        }
        return out
    }

    static func isAddress(_ word: Substring) -> Bool {
        guard let at = word.firstIndex(of: "@") else { return false }
        let host = word[word.index(after: at)...]
        return at > word.startIndex && host.contains(".")
    }
}
