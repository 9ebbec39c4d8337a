public import PleinCore
public import PleinModel
import PleinMarkdown
import Synchronization

/// A piece of the model an output was made from: a kind of piece (`Kind`, the one table of
/// them) and, for a kind of many, which one. The dev server re-renders an output only when one
/// of the pieces it read has changed.
public struct Dependency: Hashable, Sendable {
    public let kind: Kind
    /// Which piece of its kind ("" for a kind of one piece).
    public let id: String

    public init(_ kind: Kind, _ id: String = "") {
        self.kind = kind
        self.id = kind.isOne ? "" : id
    }

    /// The kinds of piece an output reads, each with its name: the start of its pieces' `key`
    /// (the whole key of a kind of one piece). Whether a kind is one piece, and which read of
    /// every record's view stands for a kind's reads inside `readingEvery`, are said here too.
    public enum Kind: String, CaseIterable, Sendable {
        case member, group, report
        /// Only when a report was published and, for an event, when it starts (`ReportTimes`):
        /// what a feed reads of the reports it does not show, to choose the newest, and a
        /// calendar of every report, to choose the events.
        case reportTimes
        /// Only a report's replies' names and times (`ReportReplies`): what a feed reads of the
        /// replies it does not show, and a card to count them.
        case reportReplies
        /// Only when a member joined: what the site feed reads of the members it does not show.
        case memberJoined
        /// Only what a chip, a list of members or a map shows of a member (`MemberCard`): not
        /// their text, nor what they did.
        case memberCard
        /// Only a group's events, its name and whether it is listed (`GroupEvents`): what
        /// calendars and lists of events read of a group.
        case groupEvents
        /// Only what lists, cards, the home page and the sitemap show of a group (`GroupCard`).
        case groupCard
        /// Only when a group's albums were made and its goals completed, and whether it is
        /// listed (`GroupActivity`): what the site feed and the home page read of the groups
        /// whose albums and goals they do not show.
        case groupActivity
        /// Only an area's name and outline (`AreaCard`): what cards, feeds, calendars and a
        /// report's page read of it; not its list of reports, which a new report changes.
        case areaCard
        /// Only when the file of a page of the site's own or of a study place last changed (by
        /// the key of its piece): what the sitemap reads of it.
        case changed
        /// Only what a list or a map shows of a report (`ReportHeadline`).
        case reportHeadline
        /// Only the short summaries of a body that lists and maps show (`Summaries`).
        case summary
        case area, location
        /// Only a study place's name: what a member's pages read of the places they studied at,
        /// not who is there now, which every check-in changes.
        case locationName
        /// Only whether a member has check-ins (and so a progress page): what the sitemap reads
        /// of their check-ins.
        case checkedIn
        case thread
        /// A member's check-ins.
        case sessions
        /// A page of the site's own.
        case page
        /// The site's own pages in order, and the menu's links to them (read by every framed page).
        case pageOrder, menu
        /// The members who left.
        case formerMembers
        case memberOrder, groupOrder, reportOrder, areaOrder, locationOrder, places, asOf
        /// The day of the build: what divides upcoming events from past ones.
        case today
        /// A rendered Markdown body, by source file.
        case body
        /// A published image, by content path.
        case image
        /// The narrower views of every report at once (their headlines, times, replies, and the
        /// summaries of their own texts), and when every member joined: what an output reads
        /// that reads them of every report or member (`DependencyRecorder.readingEvery`), one
        /// fact each (`every(covering:)`) instead of one per report. It changes whenever one of
        /// the views it stands for does, so an output reading it is rendered again exactly when
        /// it would be for reading each.
        case everyReportHeadline = "every:reportHeadline", everyReportTimes = "every:reportTimes"
        case everyReportReplies = "every:reportReplies", everyReportSummary = "every:reportSummary"
        case everyMemberJoined = "every:memberJoined"
        /// A page template, with the partials and parents it uses (by template name).
        case template
        /// What every output reads of the theme besides its templates: the interface texts
        /// (with the site's labels) and the published names of its assets.
        case theme

        /// Whether the kind is one piece (its key is its name), not one per id.
        public var isOne: Bool {
            switch self {
            case .pageOrder, .menu, .formerMembers, .memberOrder, .groupOrder, .reportOrder, .areaOrder, .locationOrder, .places, .asOf,
                 .today, .everyReportHeadline, .everyReportTimes, .everyReportReplies, .everyReportSummary, .everyMemberJoined, .theme:
                true
            case .member, .group, .report, .reportTimes, .reportReplies, .memberJoined, .memberCard, .groupEvents, .groupCard,
                 .groupActivity, .areaCard, .changed, .reportHeadline, .summary, .area, .location, .locationName, .checkedIn, .thread,
                 .sessions, .page, .body, .image, .template:
                false
            }
        }

        /// The read of every record's view that stands for a read of this kind inside
        /// `readingEvery` (a summary: of a report's own text only, `every(for:)`).
        var every: Kind? {
            switch self {
            case .reportHeadline: .everyReportHeadline
            case .reportTimes: .everyReportTimes
            case .reportReplies: .everyReportReplies
            case .memberJoined: .everyMemberJoined
            case .summary: .everyReportSummary
            case .member, .group, .report, .memberCard, .groupEvents, .groupCard, .groupActivity, .areaCard, .changed, .area, .location,
                 .locationName, .checkedIn, .thread, .sessions, .page, .pageOrder, .menu, .formerMembers, .memberOrder, .groupOrder,
                 .reportOrder, .areaOrder, .locationOrder, .places, .asOf, .today, .body, .image, .everyReportHeadline, .everyReportTimes,
                 .everyReportReplies, .everyReportSummary, .everyMemberJoined, .template, .theme:
                nil
            }
        }

        /// The kinds by name (a lookup for each of ten thousand keys read back).
        static let named = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

        /// The read of every record's view that stands for the read of `id` of this kind.
        func every(for id: String) -> Kind? {
            guard let every else { return nil }
            return self != .summary || FileRole.of(id).isReport ? every : nil
        }
    }
}

extension Dependency {
    // The pieces by kind, so that reads are written as they were named: `.member(id)`, `.menu`.
    public static func member(_ id: String) -> Dependency { Dependency(.member, id) }
    public static func group(_ id: String) -> Dependency { Dependency(.group, id) }
    public static func report(_ id: String) -> Dependency { Dependency(.report, id) }
    public static func reportTimes(_ id: String) -> Dependency { Dependency(.reportTimes, id) }
    public static func reportReplies(_ id: String) -> Dependency { Dependency(.reportReplies, id) }
    public static func memberJoined(_ id: String) -> Dependency { Dependency(.memberJoined, id) }
    public static func memberCard(_ id: String) -> Dependency { Dependency(.memberCard, id) }
    public static func groupEvents(_ id: String) -> Dependency { Dependency(.groupEvents, id) }
    public static func groupCard(_ id: String) -> Dependency { Dependency(.groupCard, id) }
    public static func groupActivity(_ id: String) -> Dependency { Dependency(.groupActivity, id) }
    public static func areaCard(_ id: String) -> Dependency { Dependency(.areaCard, id) }
    /// When the file of `piece` (a page's or a study place's) last changed.
    public static func changed(_ piece: String) -> Dependency { Dependency(.changed, piece) }
    public static func reportHeadline(_ id: String) -> Dependency { Dependency(.reportHeadline, id) }
    public static func summary(_ file: String) -> Dependency { Dependency(.summary, file) }
    public static func area(_ id: String) -> Dependency { Dependency(.area, id) }
    public static func location(_ id: String) -> Dependency { Dependency(.location, id) }
    public static func locationName(_ id: String) -> Dependency { Dependency(.locationName, id) }
    public static func checkedIn(_ id: String) -> Dependency { Dependency(.checkedIn, id) }
    public static func thread(_ id: String) -> Dependency { Dependency(.thread, id) }
    public static func sessions(_ id: String) -> Dependency { Dependency(.sessions, id) }
    public static func page(_ id: String) -> Dependency { Dependency(.page, id) }
    public static func body(_ file: String) -> Dependency { Dependency(.body, file) }
    public static func image(_ path: String) -> Dependency { Dependency(.image, path) }
    public static func template(_ name: String) -> Dependency { Dependency(.template, name) }
    public static let pageOrder = Dependency(.pageOrder), menu = Dependency(.menu), formerMembers = Dependency(.formerMembers)
    public static let memberOrder = Dependency(.memberOrder), groupOrder = Dependency(.groupOrder), reportOrder = Dependency(.reportOrder)
    public static let areaOrder = Dependency(.areaOrder), locationOrder = Dependency(.locationOrder), places = Dependency(.places)
    public static let asOf = Dependency(.asOf), today = Dependency(.today), theme = Dependency(.theme)
    public static let everyReportHeadline = Dependency(.everyReportHeadline), everyReportTimes = Dependency(.everyReportTimes)
    public static let everyReportReplies = Dependency(.everyReportReplies), everyReportSummary = Dependency(.everyReportSummary)
    public static let everyMemberJoined = Dependency(.everyMemberJoined)
}

extension Dependency {
    /// A stable name for the piece (the same in every run): how the build store keeps it. Its
    /// kind's name, and for a kind of many a colon and the id.
    public var key: String { kind.isOne ? kind.rawValue : kind.rawValue + ":" + id }

    /// The dependency whose `key` is `key`; nil for a key no dependency has.
    public init?(key: String) {
        // (Kept parts' reads are read back ten thousand at a time: one lookup each.)
        if let kind = Kind.named[key], kind.isOne {
            self.init(kind)
            return
        }
        let utf8 = key.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), let kind = Kind.named[String(key[..<colon])], !kind.isOne else { return nil }
        self.init(kind, String(key[utf8.index(after: colon)...]))
    }

    /// Every read of all records at once, each standing for the reads it covers.
    public static let everies: [Dependency] = Kind.allCases.filter { $0.every != nil }.map { Dependency($0.every!) }

    /// The read of every record's view that stands for this read inside `readingEvery`: a
    /// report's headline, times or replies, the summary of a report's own text (not a reply's),
    /// when a member joined; nil for any other.
    var every: Dependency? { kind.every(for: id).map { Dependency($0) } }

    /// The read of every record's view that stands for the fact of `key` (a key of a read that
    /// `every` maps), if any: how the facts of those reads are made from the facts they cover.
    public static func every(covering key: String) -> Dependency? {
        guard let colon = key.firstIndex(of: ":"), let kind = Kind.named[String(key[..<colon])],
              let every = kind.every(for: String(key[key.index(after: colon)...])) else { return nil }
        return Dependency(every)
    }
}

/// Collects what one output reads while it is rendered.
public final class DependencyRecorder: Sendable {
    /// The reads, how deep the output is in `readingEvery`, and the reads of each part being
    /// made for the fragment memory (`capturing`), innermost last, as they are read.
    private let recorded = Mutex<(reads: Set<Dependency>, every: Int, parts: [Set<Dependency>])>(([], 0, []))

    public init() {}

    func record(_ dependency: Dependency) {
        recorded.locked { state in Self.record(dependency, &state) }
    }

    /// Records each of `dependencies` (a kept part's reads), at once.
    func record(_ dependencies: [Dependency]) {
        recorded.locked { state in
            for dependency in dependencies { Self.record(dependency, &state) }
        }
    }

    private static func record(_ dependency: Dependency, _ state: inout (reads: Set<Dependency>, every: Int, parts: [Set<Dependency>])) {
        if state.every > 0, let every = dependency.every {
            state.reads.insert(every)
        } else {
            state.reads.insert(dependency)
        }
        for index in state.parts.indices { state.parts[index].insert(dependency) }
    }

    /// Runs `body`, recording its reads as any other, and returns them as they were read (not
    /// as `readingEvery` records them): what a part of the output was made from
    /// (`ModelView.fragment`).
    func capturing<T>(_ body: () -> T) -> (T, Set<Dependency>) {
        recorded.locked { $0.parts.append([]) }
        let value = body()
        let reads = recorded.locked { $0.parts.removeLast() }
        return (value, reads)
    }

    /// Runs `body`, recording its reads of a view of a report or member as the read of that
    /// view of every report or member (`Dependency.every`): for the part of an output that
    /// reads them for every one (a map or list of every report, the site's feed choosing its
    /// newest), which depends on each as much as on all. Ten thousand reads are then one,
    /// in the recorder, in the build store and in the comparison of facts.
    func readingEvery<T>(_ body: () -> T) -> T {
        recorded.locked { $0.every += 1 }
        defer { recorded.locked { $0.every -= 1 } }
        return body()
    }

    /// `dependency` as `record` records it here and now (inside `readingEvery`, a view of a
    /// report or member as that view of every one).
    func asRecorded(_ dependency: Dependency) -> Dependency {
        recorded.locked { $0.every > 0 } ? dependency.every ?? dependency : dependency
    }

    public var dependencies: Set<Dependency> { recorded.locked { $0.reads } }
}
