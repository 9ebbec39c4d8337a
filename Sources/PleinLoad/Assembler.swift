public import PleinCore
/// Builds records from read files and joins the files that belong together (replies to their
/// report, messages to their thread, photos to their album, avatars to their member).
struct Assembler {
    var content: Content
    /// The members read, set in `content` at once (`Content.members` makes its index when set).
    var members: [Member] = []
    var diagnostics: [Diagnostic] = []

    init(site: SiteConfig, displayRoot: String) {
        content = Content(site: site)
        content.displayRoot = displayRoot
    }

    func report(_ problem: Problem, _ file: String, _ span: Span = .fileStart) -> Diagnostic {
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

    /// One file's record as `assemble` makes it, not joined to any other file (a report
    /// without its replies, an album without its photos, a thread without its messages), with
    /// the problems of that file alone. For a reply or a message, see `replyRecord` and
    /// `messageRecord`.
    static func record(of item: Parsed, site: SiteConfig, displayRoot: String) -> (content: Content, problems: [Diagnostic]) {
        var assembler = Assembler(site: site, displayRoot: displayRoot)
        assembler.diagnostics = item.diagnostics
        assembler.assemble([item], directories: [], joining: false)
        // (The problems of the record alone: its reading's are the item's, which the caller has.
        // Given twice, a new report whose time had no UTC offset counted its warning twice.)
        return (assembler.content, Array(assembler.diagnostics.dropFirst(item.diagnostics.count)))
    }

    mutating func assemble(_ parsed: [Parsed], directories: [String], joining: Bool = true) {
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
                member.github = o.string("github").map { String($0.filter { $0 != "@" && !$0.isWhitespace }) }
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
                diagnostics += Placement.problems(o, expected: ["group": group], folder: ContentLayout.groupFolder(group) + "/", in: path)
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
                diagnostics += Placement.problems(o, expected: ["group": group], folder: ContentLayout.groupFolder(group) + "/", in: path)
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
                diagnostics += Placement.problems(o, expected: ["group": group], folder: ContentLayout.groupFolder(group) + "/", in: path)
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
                let (record, problems) = Self.reportRecord(read, path: path, area: area, name: name, clock: content.site.clock)
                diagnostics += problems
                content.reports.append(record)

            case .reply(let area, let reportName, let name):
                guard let (reply, problems) = Self.replyRecord(item.read, path: path, area: area, report: reportName, name: name) else { continue }
                diagnostics += problems
                replies["\(area)/\(reportName)", default: []].append(reply)

            case .location(let id):
                diagnostics += checkID(id, kind: "location", path: path)
                guard item.read != nil else { content.unreadable[.location, default: []].insert(id); continue }
                let place = StudyPlace(
                    name: o.string("name") ?? id, address: o.string("address"), location: o.coordinate("location"), seats: o.int("seats"),
                    studentIDRequired: o.bool("student_id_required") ?? false, openingHours: o.openingHours("opening_hours"))
                content.locations.append(StudyLocation(id: id, file: path, place: place, body: body, spans: spans))

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
                guard let message = Self.messageRecord(item.read, path: path, name: name) else { continue }
                messages[thread, default: []].append(message)
            }
        }
        guard joining else {
            content.members = members
            return
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
    /// later), and the problems of its placement fields and of its date when the file's name says another day.
    static func reportRecord(_ read: SourceReader.Read, path: String, area: String, name: String, clock: SiteClock) -> (Report, [Diagnostic]) {
        let o = read.object
        let spans = o.fields.mapValues(\.span)
        let at = o.moment("at") ?? Moment(seconds: 0)
        var problems = Placement.problems(o, expected: ["area": area], folder: ContentLayout.areaFolder(area) + "/", in: path)
        if let fileDate = ReportName.date(name), o.moment("at") != nil {
            let atDate = clock.civil(at).isoDate
            if atDate != fileDate {
                problems.append(Diagnostic(.dateMismatch(fileDate: fileDate, recordDate: atDate), in: path, at: spans["at"]!))
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
        return (record, problems)
    }

    /// A reply's record, when its file was read and names its author and time.
    /// A reply's record, with the problems of its placement fields (see `Placement`).
    static func replyRecord(_ read: SourceReader.Read?, path: String, area: String, report: String, name: String) -> (Reply, [Diagnostic])? {
        guard let read, let author = located(read.object, "author"), let at = read.object.moment("at") else { return nil }
        let problems = Placement.problems(read.object, expected: ["area": area, "report": report],
                                          folder: ContentLayout.replies("\(area)/\(report)") + "/", in: path)
        return (Reply(name: name, file: path, author: author, at: at, body: read.body), problems)
    }

    /// A message's record, when its file was read and names its author and time.
    static func messageRecord(_ read: SourceReader.Read?, path: String, name: String) -> Message? {
        guard let read, let author = located(read.object, "author"), let at = read.object.moment("at") else { return nil }
        return Message(name: name, file: path, author: author, at: at, body: read.body)
    }

    /// Messages in the order a thread shows them: by time, then by name.
    static func ordered(messages: [Message]) -> [Message] {
        messages.sorted { ($0.at, $0.name) < ($1.at, $1.name) }
    }

    /// Replies in the order a report shows them: by time, then by name.
    static func ordered(_ replies: [Reply]) -> [Reply] {
        replies.sorted { ($0.at, $0.name) < ($1.at, $1.name) }
    }
}
