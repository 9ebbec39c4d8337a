import PleinCore

/// The records of edited files made again, each joined to what the last load joined it to (a
/// report's replies and files, an album's photos, a thread's messages, a member's avatar found
/// beside it), and put in place in the content only when every one of them could be made
/// (`apply`). Nil when one cannot be made without the whole content: a problem in its file, or a
/// change of what the rules that span records read of it (a member's address, the avatar a
/// member's file names, a group's name), or of what is published of a group's photos (its
/// visibility, whether anyone is in it). With `tolerating`, a record whose file has warnings (no
/// error) is made too, as the whole load makes it, and its problems are kept (`problems`).
struct RecordEdits {
    /// The problems of the records made (only with `tolerating`).
    private(set) var problems: [Diagnostic] = []
    private let tolerating: Bool
    private var reports: [Int: Report] = [:]
    private var members: [Int: Member] = [:]
    private var groups: [Int: Group] = [:]
    private var albums: [Int: Album] = [:]
    private var goals: [Int: Goal] = [:]
    private var events: [Int: GroupEvent] = [:]
    /// New events of groups.
    private var newEvents: [GroupEvent] = []
    /// New members, goals and pages.
    private var newMembers: [Member] = []
    private var newGoals: [Goal] = []
    private var newPages: [ContentPage] = []
    private var pages: [Int: ContentPage] = [:]
    private var locations: [Int: StudyLocation] = [:]
    private var threads: [Int: Thread] = [:]
    private var checkIns: [String: [CheckIn]] = [:]
    /// New reports, by id.
    private var newReports: [String: Report] = [:]
    /// The places of deleted reports, events and goals.
    private var goneReports: Set<Int> = []
    private var goneEvents: Set<Int> = []
    private var goneGoals: Set<Int> = []

    init?(read: [Parsed], added: Set<String>, removed: Set<String> = [], content: Content, displayRoot: String, tolerating: Bool = false) {
        self.tolerating = tolerating
        let clock = content.site.clock
        for path in removed.sorted() {
            switch FileRole.of(path) {
            case .report(let area, let name, _):
                guard let index = content.reportPosition(of: area + "/" + name), content.reports[index].file == path else { return nil }
                goneReports.insert(index)
            case .reply(let area, let reportName, _):
                guard let index = content.reportPosition(of: area + "/" + reportName) else { return nil }
                var report = reports[index] ?? content.reports[index]
                guard let at = report.replies.firstIndex(where: { $0.file == path }) else { return nil }
                report.replies.remove(at: at)
                reports[index] = report
            case .event:
                guard let index = content.events.firstIndex(where: { $0.file == path }) else { return nil }
                goneEvents.insert(index)
            case .goal:
                guard let index = content.goals.firstIndex(where: { $0.file == path }) else { return nil }
                goneGoals.insert(index)
            default:
                return nil
            }
        }
        // Records first, then the replies and messages joined to them (each made from its report or
        // thread as it is so far).
        let joined = { (item: Parsed) -> Bool in
            switch item.role {
            case .reply, .message: return true
            default: return false
            }
        }
        for item in read.filter({ !joined($0) }) + read.filter(joined) {
            guard let record = item.read else { return nil }
            switch item.role {
            case .report(let area, let name, _) where added.contains(item.path):
                // A new report: its id taken by no other, in any case (`Assembler.checkID`).
                let id = area + "/" + name
                let (made, problems) = Assembler.record(of: item, site: content.site, displayRoot: displayRoot)
                guard accept(problems), let report = made.reports.first, content.reportPosition(of: id) == nil, newReports[id] == nil,
                      !content.reports.contains(where: { $0.area == area && $0.slug.lowercased() == name.lowercased() }) else { return nil }
                newReports[id] = report
            case .reply(let area, let reportName, let name) where added.contains(item.path):
                guard let index = content.reportPosition(of: area + "/" + reportName),
                      let (reply, problems) = Assembler.replyRecord(record, path: item.path, area: area, report: reportName, name: name),
                      accept(problems) else { return nil }
                var report = reports[index] ?? content.reports[index]
                report.replies = Assembler.ordered(report.replies + [reply])
                reports[index] = report
            case .report(let area, let name, _):
                guard let index = content.reportPosition(of: area + "/" + name), content.reports[index].file == item.path else { return nil }
                let (made, problems) = Assembler.reportRecord(record, path: item.path, area: area, name: name, clock: clock)
                guard accept(problems) else { return nil }
                var report = made
                report.replies = content.reports[index].replies
                report.resources = content.reports[index].resources
                reports[index] = report
            case .reply(let area, let reportName, let name):
                guard let index = content.reportPosition(of: area + "/" + reportName),
                      let (reply, problems) = Assembler.replyRecord(record, path: item.path, area: area, report: reportName, name: name),
                      accept(problems) else { return nil }
                var report = reports[index] ?? content.reports[index]
                guard let at = report.replies.firstIndex(where: { $0.file == item.path }) else { return nil }
                report.replies[at] = reply
                report.replies = Assembler.ordered(report.replies)
                reports[index] = report
            case .message(let threadID, let name):
                guard let index = content.threads.firstIndex(where: { $0.id == threadID }),
                      let message = Assembler.messageRecord(record, path: item.path, name: name) else { return nil }
                let thread = threads[index] ?? content.threads[index]
                guard let at = thread.messages.firstIndex(where: { $0.file == item.path }) else { return nil }
                var messages = thread.messages
                messages[at] = message
                threads[index] = Assembler.thread(thread, messages: Assembler.ordered(messages: messages))
            default:
                // A file that is a record on its own, made as the whole load makes it.
                let (made, problems) = Assembler.record(of: item, site: content.site, displayRoot: displayRoot)
                guard accept(problems), take(made, item: item, content: content, isNew: added.contains(item.path)) else { return nil }
            }
        }
    }

    /// Whether a record with these problems is made in place: none, or (`tolerating`) no error;
    /// the problems are kept.
    private mutating func accept(_ found: [Diagnostic]) -> Bool {
        guard !found.isEmpty else { return true }
        guard tolerating, !found.hasErrors else { return false }
        problems += found
        return true
    }

    /// Takes the record `made` of `item` in; false when it cannot be taken without the whole content.
    private mutating func take(_ made: Content, item: Parsed, content: Content, isNew: Bool) -> Bool {
        // (Of the records of a file of their own, only a group's event or goal may be new, in a
        // group there is, a page, and a member who names no avatar, each by an id no other of
        // its kind has in any case.)
        if isNew {
            switch item.role {
            case .event(let group, let id):
                guard let new = made.events.first, content.groups.contains(where: { $0.id == group }),
                      !content.events.contains(where: { $0.group == group && $0.id.lowercased() == id.lowercased() }) else { return false }
                newEvents.append(new)
            case .member(let id):
                guard let new = made.members.first, new.avatar == nil, !content.members.contains(where: { $0.id.lowercased() == id.lowercased() })
                else { return false }
                newMembers.append(new)
            case .goal(let group, let id):
                guard let new = made.goals.first, content.groups.contains(where: { $0.id == group }),
                      !content.goals.contains(where: { $0.group == group && $0.id.lowercased() == id.lowercased() }) else { return false }
                newGoals.append(new)
            case .page(let id):
                guard let new = made.pages.first, !content.pages.contains(where: { $0.id.lowercased() == id.lowercased() }) else { return false }
                newPages.append(new)
            default:
                return false
            }
            return true
        }
        switch item.role {
        case .member(let id):
            guard let new = made.members.first, let index = content.members.firstIndex(where: { $0.id == id }) else { return false }
            let old = content.members[index]
            // Another member's reference by address, and the address taken twice, read it.
            guard new.email == old.email else { return false }
            switch (new.spans["avatar"], old.spans["avatar"]) {
            case (nil, nil): members[index] = Assembler.member(new, avatar: old.avatar)
            case (_?, _?) where new.avatar?.value == old.avatar?.value: members[index] = new
            default: return false
            }
        case .group(let id):
            guard let new = made.groups.first, let index = content.groups.firstIndex(where: { $0.id == id }) else { return false }
            let old = content.groups[index]
            // Groups of the same name are told apart by the rules; what is published of a group's
            // photos and videos follows its visibility and whether anyone is in it.
            func anyone(_ group: Group) -> Bool { group.members.contains { content.memberIndex.resolve($0.value) != nil } }
            guard new.name.lowercased() == old.name.lowercased(), new.visibility == old.visibility, anyone(new) == anyone(old) else { return false }
            groups[index] = new
        case .album(let group, let id):
            guard let new = made.albums.first, let index = content.albums.firstIndex(where: { $0.group == group && $0.id == id })
            else { return false }
            albums[index] = Assembler.album(new, imageFiles: content.albums[index].imageFiles)
        case .goal(let group, let id):
            guard let new = made.goals.first, let index = content.goals.firstIndex(where: { $0.group == group && $0.id == id })
            else { return false }
            goals[index] = new
        case .event(let group, let id):
            guard let new = made.events.first, let index = content.events.firstIndex(where: { $0.group == group && $0.id == id })
            else { return false }
            events[index] = new
        case .page(let id):
            guard let new = made.pages.first, let index = content.pages.firstIndex(where: { $0.id == id }) else { return false }
            pages[index] = new
        case .location(let id):
            guard let new = made.locations.first, let index = content.locations.firstIndex(where: { $0.id == id }) else { return false }
            locations[index] = new
        case .thread(let id):
            guard let new = made.threads.first, let index = content.threads.firstIndex(where: { $0.id == id }) else { return false }
            threads[index] = Assembler.thread(new, messages: (threads[index] ?? content.threads[index]).messages)
        case .checkins(let member):
            guard content.checkInFiles[member] == item.path else { return false }
            checkIns[member] = made.checkIns
        default:
            return false
        }
        return true
    }

    /// Puts the records made in place.
    mutating func apply(to content: inout Content) {
        for (index, report) in reports { content.reports[index] = report }
        // (After the others: they are placed by the positions they had.)
        for index in goneReports.sorted(by: >) { content.reports.remove(at: index) }
        for id in newReports.keys.sorted() {
            content.reports.insert(newReports[id]!, at: content.reportInsertion(of: id))
        }
        if !members.isEmpty || !newMembers.isEmpty {
            var all = content.members
            for (index, member) in members { all[index] = member }
            if !newMembers.isEmpty {
                all += newMembers
                all.sort { $0.id < $1.id }
            }
            content.members = all
        }
        for (index, group) in groups { content.groups[index] = group }
        for (index, album) in albums { content.albums[index] = album }
        for (index, goal) in goals { content.goals[index] = goal }
        for index in goneGoals.sorted(by: >) { content.goals.remove(at: index) }
        if !newGoals.isEmpty {
            content.goals += newGoals
            content.goals.sort { ($0.group, $0.id) < ($1.group, $1.id) }
        }
        for (index, event) in events { content.events[index] = event }
        for index in goneEvents.sorted(by: >) { content.events.remove(at: index) }
        if !newEvents.isEmpty {
            content.events += newEvents
            content.events.sort { ($0.group, $0.id) < ($1.group, $1.id) }
        }
        for (index, page) in pages { content.pages[index] = page }
        if !newPages.isEmpty {
            content.pages += newPages
            content.pages.sort { $0.id < $1.id }
        }
        for (index, location) in locations { content.locations[index] = location }
        for (index, thread) in threads { content.threads[index] = thread }
        if !checkIns.isEmpty {
            content.checkIns = content.checkIns.filter { checkIns[$0.member] == nil } + checkIns.values.flatMap { $0 }
            content.checkIns.sort { ($0.member, $0.checkIn, $0.span) < ($1.member, $1.checkIn, $1.span) }
        }
    }
}
