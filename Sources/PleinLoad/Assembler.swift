public import PleinCore
/// Builds records from read files and joins the files that belong together (replies to their
/// report, messages to their thread, photos to their album, avatars to their member).
struct Assembler {
    var content: Content
    /// The members read, set in `content` at once (`Content.members` makes its index when set).
    private var members: [Member] = []
    var diagnostics: [Diagnostic] = []

    init(site: SiteConfig, displayRoot: String) {
        content = Content(site: site)
        content.displayRoot = displayRoot
    }

    private func report(_ problem: Problem, _ file: String, _ span: Span = .fileStart) -> Diagnostic {
        Diagnostic(problem, in: file, at: span)
    }

    // MARK: Images

    /// Reads the first bytes of every image file and compares them with its extension.
    static func inspectImages(_ files: [(path: String, size: Int)], fs: ContentFS) -> [(ImageFile, Diagnostic?)] {
        let candidates = files.filter { path, _ in
            switch FileRole.of(path) {
            case .avatar: return true
            case .photo: return FileRole.imageExtensions.contains(FileRole.splitExtension(path).ext.lowercased())
            case .reportResource: return FileRole.webImageExtensions.contains(FileRole.splitExtension(path).ext.lowercased())
            default: return false
            }
        }
        return parallelMap(candidates.map { ($0.path, $0.size) }) { path, size -> (ImageFile, Diagnostic?) in
            let ext = FileRole.splitExtension(path).ext.lowercased()
            guard size <= ContentLoader.maxImageBytes else {
                return (ImageFile(path: path, size: size, kind: nil),
                        Diagnostic(.fileTooLarge(bytes: size, limit: ContentLoader.maxImageBytes), in: path))
            }
            let head: [UInt8]
            do throws(ContentFS.Failure) {
                head = try fs.readPrefix(path, ImageSniffer.headLength)
            } catch {
                return (ImageFile(path: path, size: size, kind: nil), Diagnostic(.unreadable(error.reason), in: path))
            }
            let kind = ImageSniffer.kind(of: head)
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let declared = ImageFile.Kind(extension: ext)
            var problem: Problem?
            if let kind, !kind.matches(declared) {
                problem = .imageTypeMismatch(file: name, declared: ext, actual: kind.rawValue.uppercased())
            } else if kind == nil {
                problem = .notAnImage(file: name)
            }
            return (ImageFile(path: path, size: size, kind: kind), problem.map { Diagnostic($0, in: path) })
        }
    }

    // MARK: Records

    mutating func assemble(_ parsed: [Parsed], directories: [String]) {
        var replies: [String: [Reply]] = [:]
        var resources: [String: [String]] = [:]
        var messages: [String: [Message]] = [:]
        var photos: [String: [String]] = [:]
        var avatars: [String] = []
        var areaFiles: [String: Area] = [:]
        var areaIDs: Set<String> = []
        var seenIDs: [String: [String: String]] = [:]

        func checkID(_ id: String, kind: String, path: String, slugChecked: Bool = false) -> [Diagnostic] {
            var problems: [Diagnostic] = []
            if !slugChecked, !Slug.isValid(id) {
                problems.append(Diagnostic(.invalidSlug(id, suggestion: Slug.make(id)), in: path))
            }
            let key = id.lowercased()
            if let other = seenIDs[kind]?[key], other != id {
                problems.append(Diagnostic(.idCollision(id, other: other), in: path))
            } else {
                seenIDs[kind, default: [:]][key] = id
            }
            return problems
        }

        for item in parsed {
            let path = item.path
            let o = item.read?.object ?? .empty
            let body = item.read?.body ?? .empty
            let spans = o.fields.mapValues(\.span)
            switch item.role {
            case .site, .readme:
                break
            case .unexpected(let hint):
                diagnostics.append(report(.unexpectedFile(hint: hint), path))
            case .avatar:
                avatars.append(path)
            case .photo(let group, let album):
                photos["\(group)/\(album)", default: []].append(String(path.split(separator: "/").last!))
            case .reportResource(let area, let name):
                let ext = FileRole.splitExtension(path).ext.lowercased()
                let file = String(path.dropFirst(ContentLayout.reportFolder("\(area)/\(name)").count + 1))
                if AttachmentType.reportOwnFiles.contains(file.lowercased()) {
                    diagnostics.append(report(.attachmentTakesOutput(file: file, output: "reports/\(area)/\(name)/\(file.lowercased())"), path))
                    continue
                }
                if FileRole.webImageExtensions.contains(ext) {
                    resources["\(area)/\(name)", default: []].append(file)
                    continue
                }
                if FileRole.imageExtensions.union(FileRole.videoExtensions).contains(ext) {
                    // Published as they are, these would carry the phone's GPS position.
                    diagnostics.append(report(.unexpectedFile(
                        hint: "a report publishes .jpg, .png and .webp images; put phone photos and videos in an album, or convert this one to JPEG"), path))
                    continue
                }
                guard AttachmentType.of(file) != nil else {
                    diagnostics.append(report(.unexpectedFile(
                        hint: "a report publishes \(AttachmentType.listed); HTML, SVG, XML, scripts and other files could act as pages of the site, so this one is left out"), path))
                    continue
                }
                // A file whose bytes are not its type was reported when it was read (`parse`).
                guard item.diagnostics.isEmpty else { continue }
                resources["\(area)/\(name)", default: []].append(file)

            case .places:
                guard let read = item.read else { continue }
                for entry in read.entries {
                    guard case .object(let p) = entry.value, let name = p.string("name"),
                          let lat = p.number("lat"), let lon = p.number("lon") else { continue }
                    content.places.append(Place(
                        name: name, coordinate: Coordinate(lat: lat, lon: lon),
                        postcode: p.string("postcode"), span: entry.span))
                }

            case .member(let id):
                diagnostics += checkID(id, kind: "member", path: path)
                guard item.read != nil else { content.unreadable[.member, default: []].insert(id); continue }
                var home: Member.Home?
                switch o.fields["home"]?.value {
                case .string(let place)?: home = .place(place)
                case .coordinate(let c)?: home = .coordinate(c)
                default: break
                }
                let diving = o.object("diving").map {
                    Member.Diving(certification: $0.string("certification"), years: $0.int("years"), dives: $0.int("dives"))
                }
                var member = Member(
                    id: id, file: path, name: o.string("name") ?? id, email: o.string("email") ?? "",
                    avatar: o.string("avatar").map { Located($0, spans["avatar"]!) },
                    joined: o.moment("joined"), home: home, postcode: o.string("postcode"), diving: diving,
                    follows: o.strings("follows"), friends: o.strings("friends"), body: body, spans: spans)
                member.left = o.moment("left")
                members.append(member)

            case .group(let id):
                diagnostics += checkID(id, kind: "group", path: path)
                guard item.read != nil else { content.unreadable[.group, default: []].insert(id); continue }
                content.groups.append(Group(
                    id: id, file: path, name: o.string("name") ?? id, members: o.strings("members"),
                    createdBy: located(o, "created_by"),
                    visibility: o.string("visibility").flatMap(Visibility.init(rawValue:)) ?? .public,
                    body: body, spans: spans))

            case .album(let group, let id):
                diagnostics += checkID(id, kind: "album:\(group)", path: path)
                guard item.read != nil else { continue }
                let entries = o.objects("photos").compactMap { entry -> Album.Entry? in
                    guard let file = located(entry, "file") else { return nil }
                    return Album.Entry(file: file, caption: entry.string("caption"), by: located(entry, "by"))
                }
                content.albums.append(Album(
                    group: group, id: id, file: path, title: o.string("title") ?? id, date: o.moment("date"),
                    cover: located(o, "cover"), by: located(o, "by"), entries: entries,
                    map: o.string("map").flatMap(AlbumMap.init(rawValue:)) ?? .coarse, imageFiles: [], body: body, spans: spans))

            case .goal(let group, let id):
                diagnostics += checkID(id, kind: "goal:\(group)", path: path)
                guard item.read != nil else { continue }
                var goal = Goal(
                    group: group, id: id, file: path, title: o.string("title") ?? id, points: o.int("points") ?? 0,
                    addedBy: located(o, "added_by"), added: o.moment("added"),
                    completedBy: located(o, "completed_by"), completedAt: o.moment("completed_at"),
                    body: body, spans: spans)
                goal.target = o.int("target")
                goal.unit = o.string("unit")
                goal.tally = o.objects("tally").compactMap { entry in
                    guard let by = located(entry, "by"), let count = entry.int("count") else { return nil }
                    return Goal.TallyEntry(by: by, count: count, at: entry.moment("at"))
                }
                content.goals.append(goal)

            case .event(let group, let id):
                diagnostics += checkID(id, kind: "event:\(group)", path: path)
                guard item.read != nil, let starts = o.moment("starts") else { continue }
                content.events.append(GroupEvent(
                    group: group, id: id, file: path, title: o.string("title") ?? id, starts: starts, ends: o.moment("ends"),
                    place: o.string("place"), by: located(o, "by"), body: body, spans: spans))

            case .area(let id):
                guard item.read != nil else { continue }
                let boundary = o.list("boundary").compactMap { node -> Coordinate? in
                    if case .coordinate(let c) = node.value { return c }
                    return nil
                }
                if o.fields["boundary"] != nil, boundary.count < 3 {
                    diagnostics.append(report(.tooFewPoints(field: "boundary", count: boundary.count, minimum: 3), path, spans["boundary"]!))
                }
                areaFiles[id] = Area(id: id, file: path, name: o.string("name"), center: o.coordinate("center"), boundary: boundary)

            case .report(let area, let name, let bundle):
                areaIDs.insert(area)
                diagnostics += checkID(name, kind: "report:\(area)", path: path, slugChecked: true)
                if let problem = ReportName.problem(name, bundle: bundle) { diagnostics.append(report(problem, path)) }
                guard let read = item.read else { content.unreadable[.report, default: []].insert("\(area)/\(name)"); continue }
                let (record, problem) = Self.reportRecord(read, path: path, area: area, name: name, clock: content.site.clock)
                if let problem { diagnostics.append(problem) }
                content.reports.append(record)

            case .reply(let area, let reportName, let name):
                guard let reply = Self.replyRecord(item.read, path: path, name: name) else { continue }
                replies["\(area)/\(reportName)", default: []].append(reply)

            case .location(let id):
                diagnostics += checkID(id, kind: "location", path: path)
                guard item.read != nil else { content.unreadable[.location, default: []].insert(id); continue }
                content.locations.append(StudyLocation(
                    id: id, file: path, name: o.string("name") ?? id, address: o.string("address"),
                    location: o.coordinate("location"), seats: o.int("seats"),
                    studentIDRequired: o.bool("student_id_required") ?? false,
                    openingHours: o.openingHours("opening_hours"), body: body, spans: spans))

            case .page(let id):
                diagnostics += checkID(id, kind: "page", path: path)
                if ContentLayout.reservedPageNames.contains(id.lowercased()) { diagnostics.append(report(.reservedPageName(id), path)) }
                guard item.read != nil else { continue }
                content.pages.append(ContentPage(
                    id: id, file: path, title: o.string("title") ?? id, description: o.string("description"),
                    menu: o.bool("menu") ?? true, menuTitle: o.string("menu_title"), order: o.int("order") ?? 0, body: body))

            case .checkins(let member):
                diagnostics += checkID(member, kind: "checkins", path: path)
                content.checkInFiles[member] = path
                for entry in item.read?.entries ?? [] {
                    guard case .object(let e) = entry.value, let location = located(e, "location"),
                          let checkIn = e.moment("in") else { continue }
                    content.checkIns.append(CheckIn(
                        member: member, file: path, location: location, checkIn: checkIn, checkOut: e.moment("out"),
                        span: entry.span, inSpan: e.span("in")!, outSpan: e.span("out")))
                }

            case .thread(let id):
                diagnostics += checkID(id, kind: "thread", path: path)
                guard item.read != nil else { continue }
                content.threads.append(Thread(
                    id: id, file: path, participants: o.strings("participants"), subject: o.string("subject") ?? id,
                    messages: [], spans: spans))

            case .message(let thread, let name):
                guard item.read != nil, let author = located(o, "author"), let at = o.moment("at") else { continue }
                messages[thread, default: []].append(Message(name: name, file: path, author: author, at: at, body: body))
            }
        }

        attachAvatars(avatars)
        attachPhotos(photos)
        attachReplies(replies, resources: resources)
        attachMessages(messages)
        buildAreas(areaFiles, reportAreas: areaIDs, directories: directories)
        requireIndexFiles(directories)
        sortRecords()
    }

    private func located(_ o: ObjectValue, _ name: String) -> Located<String>? {
        Self.located(o, name)
    }

    private static func located(_ o: ObjectValue, _ name: String) -> Located<String>? {
        guard let value = o.string(name), let span = o.span(name) else { return nil }
        return Located(value, span)
    }

    /// A report's record as its own file gives it (its replies and other files are joined to it
    /// later), and the problem of its date when the file's name says another day.
    static func reportRecord(_ read: SourceReader.Read, path: String, area: String, name: String, clock: SiteClock) -> (Report, Diagnostic?) {
        let o = read.object
        let spans = o.fields.mapValues(\.span)
        let at = o.moment("at") ?? Moment(seconds: 0)
        var problem: Diagnostic?
        if let fileDate = ReportName.date(name), o.moment("at") != nil {
            let atDate = clock.civil(at).isoDate
            if atDate != fileDate {
                problem = Diagnostic(.dateMismatch(fileDate: fileDate, recordDate: atDate), in: path, at: spans["at"]!)
            }
        }
        var record = Report(
            area: area, slug: name, file: path, title: o.string("title") ?? name,
            category: o.string("category").flatMap(Category.init(rawValue:)) ?? .message, at: at,
            author: located(o, "author") ?? Located("", .fileStart), location: o.coordinate("location"),
            body: read.body, replies: [], resources: [], spans: spans)
        record.starts = o.moment("starts")
        record.ends = o.moment("ends")
        record.place = o.string("place")
        return (record, problem)
    }

    /// A reply's record, when its file was read and names its author and time.
    static func replyRecord(_ read: SourceReader.Read?, path: String, name: String) -> Reply? {
        guard let read, let author = located(read.object, "author"), let at = read.object.moment("at") else { return nil }
        return Reply(name: name, file: path, author: author, at: at, body: read.body)
    }

    /// Replies in the order a report shows them: by time, then by name.
    static func ordered(_ replies: [Reply]) -> [Reply] {
        replies.sorted { ($0.at, $0.name) < ($1.at, $1.name) }
    }

    // MARK: Joining files

    private mutating func attachAvatars(_ avatars: [String]) {
        var unclaimed = Set(avatars)
        content.members = members.map { member in
            if let given = member.avatar {
                unclaimed.remove(ContentLayout.avatar(given.value))
                return member
            }
            for ext in ["jpg", "jpeg", "png", "webp", "heic", "heif", "avif"] where unclaimed.contains(ContentLayout.avatar("\(member.id).\(ext)")) {
                unclaimed.remove(ContentLayout.avatar("\(member.id).\(ext)"))
                return Member(
                    id: member.id, file: member.file, name: member.name, email: member.email,
                    avatar: Located("\(member.id).\(ext)", .fileStart), joined: member.joined, home: member.home,
                    postcode: member.postcode, diving: member.diving, follows: member.follows,
                    friends: member.friends, body: member.body, spans: member.spans)
            }
            return member
        }
        for path in unclaimed.sorted() {
            diagnostics.append(report(.unexpectedFile(hint: "no member uses this avatar: name it <member>.jpg or set 'avatar'"), path))
        }
    }

    private mutating func attachPhotos(_ photos: [String: [String]]) {
        var claimed: Set<String> = []
        content.albums = content.albums.map { album in
            let key = "\(album.group)/\(album.id)"
            claimed.insert(key)
            let files = (photos[key] ?? []).sorted()
            if files.isEmpty { diagnostics.append(report(.emptyAlbum, album.file)) }
            return Album(
                group: album.group, id: album.id, file: album.file, title: album.title, date: album.date,
                cover: album.cover, by: album.by, entries: album.entries, map: album.map, imageFiles: files, body: album.body, spans: album.spans)
        }
        for key in photos.keys.sorted() where !claimed.contains(key) {
            let parts = key.split(separator: "/")
            diagnostics.append(report(.missingFile("index.md"), ContentLayout.album(group: String(parts[0]), id: String(parts[1]))))
        }
    }

    private mutating func attachReplies(_ replies: [String: [Reply]], resources: [String: [String]]) {
        var byID: [String: Int] = [:]
        var kept: [Report] = []
        for report in content.reports {
            if let index = byID[report.id] {
                let other = kept[index].file
                diagnostics.append(self.report(.duplicateReport(report.id, other: other), report.file))
                continue
            }
            byID[report.id] = kept.count
            let own = Self.ordered(replies[report.id] ?? [])
            var joined = report
            joined.replies = own
            joined.resources = (resources[report.id] ?? []).sorted()
            kept.append(joined)
        }
        content.reports = kept
        let bundles = Set(kept.filter { $0.file.hasSuffix("/index.md") }.map(\.id))
        for id in Set(replies.keys).union(resources.keys).sorted() where !bundles.contains(id) {
            diagnostics.append(report(.missingFile("index.md"), ContentLayout.report(id, bundle: true)))
        }
    }

    private mutating func attachMessages(_ messages: [String: [Message]]) {
        let known = Set(content.threads.map(\.id))
        content.threads = content.threads.map { thread in
            let own = (messages[thread.id] ?? []).sorted { ($0.at, $0.name) < ($1.at, $1.name) }
            if own.isEmpty { diagnostics.append(report(.threadWithoutMessages, thread.file)) }
            return Thread(id: thread.id, file: thread.file, participants: thread.participants, subject: thread.subject,
                          messages: own, spans: thread.spans)
        }
        for id in messages.keys.sorted() where !known.contains(id) {
            diagnostics.append(report(.missingFile("thread.yaml"), ContentLayout.thread(id)))
        }
    }

    private mutating func buildAreas(_ files: [String: Area], reportAreas: Set<String>, directories: [String]) {
        guard content.site.has(.reports) else { return }
        var ids = reportAreas.union(files.keys)
        for directory in directories {
            let parts = directory.split(separator: "/")
            if parts.count == 2, parts[0] == "reports" { ids.insert(String(parts[1])) }
        }
        for id in ids.sorted() {
            if !Slug.isValid(id) {
                diagnostics.append(report(.invalidSlug(id, suggestion: Slug.make(id)), files[id]?.file ?? ContentLayout.areaFolder(id) + "/"))
            }
            content.areas.append(files[id] ?? Area(id: id, file: nil, name: nil, center: nil, boundary: []))
        }
    }

    /// Group, album and thread folders need their index file even when they hold nothing else.
    private mutating func requireIndexFiles(_ directories: [String]) {
        let groups = Set(content.groups.map(\.id))
        for directory in directories {
            let parts = directory.split(separator: "/").map(String.init)
            if parts.count == 2, parts[0] == "groups", content.site.has(.groups), !groups.contains(parts[1]),
               !diagnostics.contains(where: { $0.file == ContentLayout.group(parts[1]) }) {
                diagnostics.append(report(.missingFile("index.md"), ContentLayout.group(parts[1])))
            }
        }
    }

    private mutating func sortRecords() {
        content.members.sort { $0.id < $1.id }
        content.groups.sort { $0.id < $1.id }
        content.albums.sort { ($0.group, $0.id) < ($1.group, $1.id) }
        content.goals.sort { ($0.group, $0.id) < ($1.group, $1.id) }
        content.events.sort { ($0.group, $0.id) < ($1.group, $1.id) }
        content.reports.sort { $0.id < $1.id }
        content.locations.sort { $0.id < $1.id }
        content.threads.sort { $0.id < $1.id }
        content.pages.sort { $0.id < $1.id }
        content.checkIns.sort { ($0.member, $0.checkIn, $0.span) < ($1.member, $1.checkIn, $1.span) }
    }
}

/// Report files are named `<YYYY-MM-DD>-<slug>`.
enum ReportName {
    static func date(_ name: String) -> String? {
        guard name.count > 11 else { return nil }
        let date = String(name.prefix(10))
        guard name.dropFirst(10).first == "-", case .success(.date) = ISO8601.parse(date) else { return nil }
        return date
    }

    static func problem(_ name: String, bundle: Bool) -> Problem? {
        let shown = bundle ? name + "/" : name + ".md"
        let expected = bundle ? "<YYYY-MM-DD>-<slug>/ (a bundle folder)" : "<YYYY-MM-DD>-<slug>.md"
        guard date(name) != nil else { return .invalidFileName(shown, expected: expected) }
        guard Slug.isValid(String(name.dropFirst(11))) else {
            return .invalidSlug(name, suggestion: String(name.prefix(11)) + Slug.make(String(name.dropFirst(11))))
        }
        return nil
    }
}

/// Tells JPEG, PNG, WebP, HEIF and AVIF apart by their first bytes.
public enum ImageSniffer {
    /// How many bytes `kind(of:)` looks at: enough for a HEIF `ftyp` box with its brands.
    public static let headLength = 64

    public static func kind(of head: [UInt8]) -> ImageFile.Kind? {
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return heifKind(head)
    }

    /// An ISO media file starts with an `ftyp` box: its size, "ftyp", a major brand, a minor
    /// version and compatible brands. HEIF images name `mif1`/`heic`…, AVIF `avif`/`avis`.
    static func heifKind(_ head: [UInt8]) -> ImageFile.Kind? {
        guard head.count >= 16, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        guard size >= 16 else { return nil }
        let end = min(size, head.count)
        var brands = [String(decoding: head[8..<12], as: UTF8.self)]
        var at = 16
        while at + 4 <= end {
            brands.append(String(decoding: head[at..<at + 4], as: UTF8.self))
            at += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heif: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "mif2"]
        return brands.contains(where: heif.contains) ? .heif : nil
    }
}
