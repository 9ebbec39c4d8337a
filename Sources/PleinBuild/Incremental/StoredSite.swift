import Foundation
import GRDB
import PleinCore
import PleinModel
import PleinRender

/// The part of the content a build after edits of records in place reads (`RecordEdit`): the
/// files the stages read around the edited records, as `plein serve`'s update of the same edit
/// reads them from the whole content in memory, and nothing else.
///
/// - Always: `site.yaml` and `places.yaml`; and every member (who the members are, their homes
///   and their addresses, which the rules and the model resolve every reference with), but
///   for an edit of reports and replies only (`membersRead` false), which resolves them with
///   the index the last build kept (`ModelValues.memberIndexKey`).
/// - A page: every page (the menu is made of them all).
/// - A group's record, album, goal or event: every group's own file (which groups are published,
///   and their names, told apart by the rules) and that group's folder (its whole group is
///   checked).
/// - A report or a reply: its report's folder (or its one file), and its area's file.
/// - A study location or check-ins: every location and every member's check-ins.
/// - A thread or a message: its thread's folder.
/// - The reports the edited members follow (whether each is there).
struct ContentSlice: Sendable {
    /// Folders read whole, content-relative.
    private(set) var folders: Set<String> = []
    /// Files read besides them.
    private(set) var files: Set<String> = [ContentLayout.site, ContentLayout.places]
    /// Whether every group's own file is read.
    private(set) var groupFiles = false

    /// Whether the members' records are read.
    var membersRead: Bool { folders.contains(ContentLayout.members) }

    init(changed: Set<String>, followed: Set<String>) {
        if !changed.allSatisfy({ path in
            switch FileRole.of(path) {
            case .report, .reply: true
            default: false
            }
        }) { folders.insert(ContentLayout.members) }
        for path in changed {
            switch FileRole.of(path) {
            case .group(let id), .album(let id, _), .goal(let id, _), .event(let id, _):
                folders.insert(ContentLayout.groupFolder(id))
                groupFiles = true
            case .page: folders.insert(ContentLayout.pages)
            case .report(let area, let name, _), .reply(let area, let name, _): report(area + "/" + name)
            case .location, .checkins: folders.formUnion([ContentLayout.locations, ContentLayout.checkIns])
            case .thread(let id), .message(let id, _): folders.insert(ContentLayout.threadFolder(id))
            default: break
            }
        }
        for id in followed { report(id) }
    }

    /// Whether the pieces made again of `path`'s record read other members' and groups' pieces
    /// (members' names, to order lists by; a group's lists): a member's, a group's, an album's, a
    /// goal's, an event's, a member's check-ins.
    static func readsMembersAndGroups(_ path: String) -> Bool {
        switch FileRole.of(path) {
        case .member, .group, .album, .goal, .event, .checkins: true
        default: false
        }
    }

    /// A report's folder, or its one file, and its area's file.
    private mutating func report(_ id: String) {
        folders.insert(ContentLayout.reportFolder(id))
        files.insert(ContentLayout.reportFolder(id) + ".md")
        files.insert(ContentLayout.area(String(id.prefix { $0 != "/" })))
    }

    /// Whether the slice holds `path` (a folder: holds anything under it).
    func includes(_ path: String, folder: Bool) -> Bool {
        if files.contains(path) || folders.contains(path) { return true }
        if let top = path.split(separator: "/", maxSplits: 1).first, folders.contains(String(top)) { return true }
        if folders.contains(where: { path.hasPrefix($0 + "/") }) { return true }
        if folder {
            // The folders of groups, for their own files; and those leading to the rest.
            let parts = path.split(separator: "/")
            if groupFiles, parts.count <= 2, parts[0] == ContentLayout.groups { return true }
            return folders.contains { $0.hasPrefix(path + "/") } || files.contains { $0.hasPrefix(path + "/") }
        }
        switch FileRole.of(path) {
        case .group: return groupFiles
        case .area: return true
        default: return false
        }
    }

    /// The ranges of paths under the slice's folders, for reading their records from the store:
    /// `(from, to)`, `to` excluded. ("/" + 1 is "0": every path under a folder sorts between.)
    var folderRanges: [(String, String)] {
        folders.sorted().map { ($0 + "/", $0 + "0") }
    }
}

extension StoredModel {
    /// The model the build store keeps, with every piece but the reports', of which only those
    /// of `reports`: what `ModelBuilder.replace(records:…)` makes the edited records' pieces
    /// again in. Without `membersAndGroups`, for edits whose pieces read no member's or group's
    /// piece (`ContentSlice.readsMembersAndGroups`), those are left in the store, but for the
    /// `members` named. Nil when a piece it needs is missing or cannot be read.
    static func restore(_ db: Database, site: SiteConfig, reports ids: Set<String>, membersAndGroups: Bool = true,
                        members named: Set<String> = []) throws -> SiteModel? {
        func one<Value>(_ kind: PieceKind<Value>) throws -> Value? {
            try BuildStore.value(db, kind.key(), as: Value.self)
        }
        func all<Value>(_ kind: PieceKind<Value>) throws -> [String: Value]? {
            let rows = try BuildStore.values(db, prefix: kind.key(""))
            // (Decoded on every core: two thousand members are most of a build after an edit.)
            let decoded = parallelMap(rows) { id, bytes in (id, ModelValues.decode(Value.self, bytes)) }
            guard decoded.allSatisfy({ $0.1 != nil }) else { return nil }
            return Dictionary(decoded.map { ($0, $1!) }, uniquingKeysWith: { a, _ in a })
        }
        func ordered<Value>(_ pieces: [String: Value]?, _ order: [String]?) -> [Value]? {
            guard let pieces, let order else { return nil }
            let values = order.compactMap { pieces[$0] }
            return values.count == order.count ? values : nil
        }
        var reports: [String: ReportModel] = [:]
        for id in ids {
            guard let report = try BuildStore.value(db, ModelPieces.report.key(id), as: ReportModel.self) else { continue }
            reports[id] = report
        }
        var some: [String: MemberModel] = [:]
        for id in named where !membersAndGroups {
            guard let member = try BuildStore.value(db, ModelPieces.member.key(id), as: MemberModel.self) else { return nil }
            some[id] = member
        }
        guard let members = membersAndGroups ? try all(ModelPieces.member) : some, let memberOrder = try one(ModelPieces.memberOrder),
              let formerMembers = try one(ModelPieces.formerMembers), let groups = membersAndGroups ? try all(ModelPieces.group) : [:],
              let groupOrder = try one(ModelPieces.groupOrder),
              let areas = ordered(try all(ModelPieces.area), try one(ModelPieces.areaOrder)),
              let reportOrder = try one(ModelPieces.reportOrder),
              let locations = ordered(try all(ModelPieces.location), try one(ModelPieces.locationOrder)),
              let sessions = try all(ModelPieces.sessions), let threads = try all(ModelPieces.thread),
              let pages = ordered(try all(ModelPieces.page), try one(ModelPieces.pageOrder)),
              let places = try one(ModelPieces.places), let asOf = try one(ModelPieces.asOf), let today = try one(ModelPieces.today)
        else { return nil }
        return SiteModel(
            site: site, members: members, memberOrder: memberOrder, formerMembers: formerMembers, groups: groups, groupOrder: groupOrder,
            areas: areas, reports: reports, reportOrder: reportOrder, locations: locations,
            sessions: sessions.keys.sorted().flatMap { sessions[$0]! }, asOf: asOf, threads: threads.keys.sorted().map { threads[$0]! },
            places: places, today: today, pages: pages)
    }
}
