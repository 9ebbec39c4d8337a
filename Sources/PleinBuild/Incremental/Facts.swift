import PleinCore
import PleinMarkdown
import PleinModel
import PleinRender

/// Every piece of the model an output can read (a `Dependency`, by its key) with a fingerprint of
/// its value. A later build compares fingerprints to learn what an edit changed without keeping
/// the earlier model: the pieces whose fingerprint differs, appeared or vanished.
///
/// A fingerprint is the SHA-256 of the value's every stored property, nested ones included,
/// through its synthesized `Encodable` conformance (`FingerprintEncoder`). Model values hold
/// arrays, never dictionaries or sets, so the encoding is the same in every run; `FactsTests`
/// keeps it so.
struct Facts: Sendable, Equatable {
    var values: [String: [UInt8]] = [:]

    init(values: [String: [UInt8]] = [:]) {
        self.values = values
    }

    /// The fact that stands for the site's settings (`site.yaml` as written): when it changes,
    /// every output is rendered again.
    static let siteKey = "site"

    /// The fact of the site's settings, `siteKey`'s: `site.yaml` as written.
    static func settings(_ text: String) -> [UInt8] { Hashing.sha256(Array(text.utf8)) }

    /// The facts of a model, its settings (`site.yaml`'s text), its bodies (by the fingerprints
    /// of what they are made from, and the summaries of their `texts`), its images, and the
    /// theme: each page template with the partials and parents it uses, and the rest of the
    /// theme that outputs read (interface texts, assets' published names).
    ///
    /// Some facts are narrower views of another (a report's headline and times, a member's
    /// joining, a body's summaries): when that other fact is the same as in `previous`, theirs
    /// are taken from there rather than computed again.
    ///
    /// With `before` (the dev server keeps the last model in memory), a piece whose value equals
    /// the one it had there keeps its fingerprint from `previous` without being hashed again.
    init(_ model: SiteModel, settings: String, bodies: [String: [UInt8]], texts: Bodies, images: ImageCatalog, theme: Theme? = nil,
         previous: Facts? = nil, before: (model: SiteModel, images: ImageCatalog)? = nil) {
        var pieces: [(String, any Encodable & Sendable)] = []
        pieces.reserveCapacity(model.members.count + model.groups.count + model.reports.count + images.images.count + images.videos.count + 16)
        var kept: [String: [UInt8]] = [:]
        let known = before == nil ? nil : previous
        for kind in ModelPieces.every {
            for (key, value, unchanged) in kind.entries(model, images, before) {
                if unchanged, let fingerprint = known?.values[key] {
                    kept[key] = fingerprint
                } else {
                    pieces.append((key, value))
                }
            }
        }
        let hashed = parallelMap(pieces) { key, value in (key, FingerprintEncoder.fingerprint(value)) }
        var values = Dictionary(hashed, uniquingKeysWith: { a, _ in a })
        values.reserveCapacity((hashed.count + kept.count) * 2 + bodies.count * 2 + 1)
        values.merge(kept) { a, _ in a }
        values[Self.siteKey] = Self.settings(settings)
        for (file, digest) in bodies { values[Dependency.body(file).key] = digest }
        if let theme { values.merge(Self.theme(theme)) { a, _ in a } }

        // The narrower views: taken from `previous` where what they are made from is the same.
        enum Derived: Sendable {
            case views(of: Dependency.Kind, String), changed(Dependency), summary(String)
        }
        let views = ModelViews.byBase.mapValues { kinds in kinds.map { $0.views(model, images) } }
        let derived = views.keys.sorted { $0.rawValue < $1.rawValue }.flatMap { base in views[base]![0].ids.map { Derived.views(of: base, $0) } }
            + model.pages.map { Derived.changed(.page($0.id)) } + model.locations.map { Derived.changed(.location($0.id)) }
            + bodies.keys.filter { texts[$0] != nil }.map(Derived.summary)
        let primary = values
        let computed = parallelMap(derived) { piece -> [(String, [UInt8])] in
            func reused(_ source: Dependency, _ views: [Dependency]) -> [(String, [UInt8])]? {
                let key = source.key
                guard let previous, let before = previous.values[key], before == primary[key] else { return nil }
                var found: [(String, [UInt8])] = []
                for view in views {
                    guard let value = previous.values[view.key] else { return nil }
                    found.append((view.key, value))
                }
                return found
            }
            switch piece {
            case .views(let base, let id):
                if let found = reused(Dependency(base, id), ModelViews.byBase[base]!.map { Dependency($0.kind, id) }) { return found }
                return views[base]!.compactMap { $0.view(id) }.map { ($0.key, $0.fact) }
            case .changed(let piece):
                if let found = reused(piece, [.changed(piece.key)]) { return found }
                return [Self.changed(piece, in: model)]
            case .summary(let file):
                if let found = reused(.body(file), [.summary(file)]) { return found }
                return [Self.summary(of: file, texts[file]!.text)]
            }
        }
        for pieces in computed { for (key, value) in pieces { values[key] = value } }
        // Whether each member has check-ins (cheap: not taken from `previous`).
        let studying = Set(model.sessions.map(\.member))
        for id in model.members.keys { values[Dependency.checkedIn(id).key] = Self.checkedIn(studying.contains(id)) }
        values.merge(Self.everies(of: values)) { _, sum in sum }
        self.values = values
    }

    /// The facts of the reads of every report's or member's views (`Dependency.everies`): the
    /// sums of the facts they stand for, in any order.
    static func everies(of values: [String: [UInt8]]) -> [String: [UInt8]] {
        var sums = Dictionary(uniqueKeysWithValues: Dependency.everies.map { ($0.key, (UInt64(0), UInt64(0))) })
        for (key, value) in values {
            guard let every = Dependency.every(covering: key) else { continue }
            let (x, y) = ReadsDigest.hash(key, then: value)
            sums[every.key]!.0 &+= x
            sums[every.key]!.1 &+= y
        }
        return sums.mapValues(Self.bytes)
    }

    /// The facts of the reads of every record's views (`Dependency.everies`) after some of the
    /// facts they stand for changed (`changes`: each key's fact before and after, nil when it
    /// was not or is no more), from their facts before (`current`): each sum loses the old
    /// fact's term and gains the new one's. Only the sums that a change reaches are returned;
    /// nil when one of them is not in `current`.
    static func everies(after changes: [(key: String, old: [UInt8]?, new: [UInt8]?)], current: (String) -> [UInt8]?) -> [(key: String, value: [UInt8])]? {
        var sums: [String: (UInt64, UInt64)] = [:]
        for (key, old, new) in changes where old != new {
            guard let every = Dependency.every(covering: key)?.key else { continue }
            if sums[every] == nil {
                guard let bytes = current(every), bytes.count == 16 else { return nil }
                sums[every] = bytes.withUnsafeBytes { (UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)),
                                                        UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))) }
            }
            if let old {
                let (x, y) = ReadsDigest.hash(key, then: old)
                sums[every]!.0 &-= x
                sums[every]!.1 &-= y
            }
            if let new {
                let (x, y) = ReadsDigest.hash(key, then: new)
                sums[every]!.0 &+= x
                sums[every]!.1 &+= y
            }
        }
        return sums.keys.sorted().map { ($0, Self.bytes(sums[$0]!)) }
    }

    private static func bytes(_ sum: (UInt64, UInt64)) -> [UInt8] {
        withUnsafeBytes(of: sum.0.littleEndian) { Array($0) } + withUnsafeBytes(of: sum.1.littleEndian) { Array($0) }
    }

    /// Takes in a model made again piece by piece (`ModelChange`: the rest of the model, the
    /// images, the settings and the theme are as they were when these facts were made): the
    /// facts of those pieces, their narrower views and the bodies that changed (`changedBodies`)
    /// are made again, in place, and the keys whose fingerprint changed are returned. The same
    /// facts as `init` makes of the whole model (`FactsTests`).
    mutating func update(_ change: ModelChange, model: SiteModel, images: ImageCatalog, bodies: [String: [UInt8]], texts: Bodies,
                         changedBodies: Set<String>) -> Set<String> {
        var changed: Set<String> = []
        var changes: [(key: String, old: [UInt8]?, new: [UInt8]?)] = []
        for (key, value) in Self.facts(of: change, model: model, images: images, bodies: bodies, texts: texts, changedBodies: changedBodies) {
            let old = value.map { values.updateValue($0, forKey: key) } ?? values.removeValue(forKey: key)
            if old != value {
                changed.insert(key)
                changes.append((key, old, value))
            }
        }
        let sums = Self.everies(after: changes, current: { [values] in values[$0] }) ?? Self.everies(of: values).map { ($0.key, $0.value) }
        for (key, value) in sums where values.updateValue(value, forKey: key) != value {
            changed.insert(key)
        }
        return changed
    }

    /// Takes in the site's settings (`site.yaml` as written): `siteKey`, when it changed.
    mutating func update(settings: String) -> Set<String> {
        let fact = Self.settings(settings)
        return values.updateValue(fact, forKey: Self.siteKey) == fact ? [] : [Self.siteKey]
    }

    /// Takes in the theme read again (the model, its images and the settings as they were): its
    /// facts (`theme(_:)`), in place, without those of the templates of `before` it has no more; the keys whose
    /// fingerprint changed, appeared or vanished are returned. (The facts of a site of 100,000
    /// reports are a million: they are not looked through for templates.)
    mutating func update(theme: Theme, before: Set<String>) -> Set<String> {
        var changed: Set<String> = []
        for (key, value) in Self.theme(theme) where values.updateValue(value, forKey: key) != value { changed.insert(key) }
        for name in before where theme.templates[name] == nil && values.removeValue(forKey: Dependency.template(name).key) != nil {
            changed.insert(Dependency.template(name).key)
        }
        return changed
    }

    /// The facts `update` makes again after a model made piece by piece, each with its new
    /// fingerprint (nil: the fact is no more).
    static func facts(of change: ModelChange, model: SiteModel, images: ImageCatalog, bodies: [String: [UInt8]], texts: Bodies,
                      changedBodies: Set<String>) -> [(key: String, value: [UInt8]?)] {
        var facts: [(key: String, value: [UInt8]?)] = []
        for id in change.reports.sorted() {
            guard let report = model.reports[id] else {
                facts += ([Dependency.report(id)] + ModelViews.byBase[.report]!.map { Dependency($0.kind, id) }).map { ($0.key, nil) }
                continue
            }
            facts += Self.report(report, bodies: bodies, texts: { texts[$0] }).map { ($0.0, $0.1) }
        }
        for (kind, ids) in ModelPieces.pieces(of: change, in: model) {
            facts += kind.fingerprints(model, images, ids).map { ($0.key, $0.value) }
        }
        // The views of the pieces made again (a report's are in its facts already).
        for (base, ids) in [(Dependency.Kind.member, change.members), (.group, change.groups), (.area, change.areas), (.location, change.locations)]
        where !ids.isEmpty {
            let views = ModelViews.byBase[base]!.map { $0.views(model, images).view }
            for id in ids.sorted() {
                facts += ModelViews.byBase[base]!.indices.map { index in
                    views[index](id).map { ($0.key, Optional($0.fact)) } ?? (Dependency(ModelViews.byBase[base]![index].kind, id).key, nil)
                }
            }
        }
        if change.pages { facts += model.pages.map { Self.changed(.page($0.id), in: model) }.map { ($0.0, $0.1) } }
        facts += change.locations.sorted().map { Self.changed(.location($0), in: model) }.map { ($0.0, $0.1) }
        // Whether each member whose check-ins changed has any, and each member made again (a new
        // one has none before).
        let checking = change.members.union(change.sessions ?? [])
        if !checking.isEmpty {
            let studying = Set(model.sessions.map(\.member))
            for id in checking.sorted() where model.members[id] != nil {
                facts.append((Dependency.checkedIn(id).key, Self.checkedIn(studying.contains(id))))
            }
        }
        // (A report's facts hold its bodies' already.)
        let taken = Set(facts.map(\.key))
        for file in changedBodies.sorted() where !taken.contains(Dependency.body(file).key) {
            facts.append((Dependency.body(file).key, bodies[file]))
            facts.append((Dependency.summary(file).key, texts[file].map { Self.summary(of: file, $0.text).1 }))
        }
        return facts
    }

    /// Every fact of a report: its own, its narrower views, and its bodies' digests and summaries
    /// (those `bodies` and `texts` have).
    static func report(_ report: ReportModel, bodies: [String: [UInt8]], texts: (String) -> RenderedMarkdown?) -> [(String, [UInt8])] {
        var facts = [(Dependency.report(report.id).key, FingerprintEncoder.fingerprint(report))] + ModelViews.facts(of: report, .report, report.id)
        for file in [report.file] + report.replies.map(\.file) {
            if let digest = bodies[file] { facts.append((Dependency.body(file).key, digest)) }
            if let text = texts(file) { facts.append(summary(of: file, text.text)) }
        }
        return facts
    }

    /// Whether a member has check-ins, as a fact.
    private static func checkedIn(_ has: Bool) -> [UInt8] { FingerprintEncoder.fingerprint(has) }

    /// When the file of a page or a study place last changed, as a fact.
    private static func changed(_ piece: Dependency, in model: SiteModel) -> (String, [UInt8]) {
        let at: Moment? = switch piece.kind {
        case .page: model.pages.first { $0.id == piece.id }?.revision?.changed
        case .location: model.locations.first { $0.id == piece.id }?.revision?.changed
        default: nil
        }
        return (Dependency.changed(piece.key).key, FingerprintEncoder.fingerprint(At(at: at)))
    }

    /// A body's summaries, as a fact.
    private static func summary(of file: String, _ text: String) -> (String, [UInt8]) {
        (Dependency.summary(file).key, FingerprintEncoder.fingerprint(Summaries.of(text)))
    }

    /// The facts of a theme: `template:<name>` for each template (its text and those of the
    /// partials and parents it uses, so that an edit of a partial changes the facts of exactly the
    /// templates that include it), and `theme` for the rest. (Leaflet is not among them: a build
    /// whose Leaflet changed is a full one, `Remembered.fingerprint`, and `serve` reads it once.)
    static func theme(_ theme: Theme) -> [String: [UInt8]] {
        var facts: [String: [UInt8]] = [:]
        for name in theme.templates.keys {
            var bytes: [UInt8] = []
            for used in theme.closure(of: name).sorted() {
                bytes += Array(used.utf8) + [0] + Array((theme.templates[used] ?? "").utf8) + [0]
            }
            facts[Dependency.template(name).key] = Hashing.sha256(bytes)
        }
        var rest: [UInt8] = Array(theme.strings.language.rawValue.utf8) + [0]
        for (key, value) in theme.strings.table.sorted(by: { $0.key < $1.key }) { rest += Array(key.utf8) + [0] + Array(value.utf8) + [0] }
        for (name, asset) in theme.assets.sorted(by: { $0.key < $1.key }) { rest += Array(name.utf8) + [0] + Array(asset.output.utf8) + [0] }
        facts[Dependency.theme.key] = Hashing.sha256(rest)
        return facts
    }

    /// A moment (when a member joined, when a file last changed), as a fact of its own.
    typealias At = Dated

    /// The keys of the pieces that differ between `self` (earlier) and `now`.
    func changes(to now: Facts) -> Set<String> {
        var changed: Set<String> = []
        for (key, value) in now.values where values[key] != value { changed.insert(key) }
        for key in values.keys where now.values[key] == nil { changed.insert(key) }
        return changed
    }
}
