public import PleinCore

extension Assembler {
    // MARK: Joining files

    /// The kinds of file a member's avatar found beside their file (`<member>.<extension>`) is.
    static let avatarExtensions = ["jpg", "jpeg", "png", "webp", "heic", "heif", "avif"]

    mutating func attachAvatars(_ avatars: [String]) {
        var unclaimed = Set(avatars)
        let extensions = Self.avatarExtensions
        // (The names the files could be a member's avatar by: a member whose id is none of them
        // has none to look for, and two thousand members cost a lookup each.)
        let names = Set(avatars.compactMap { path -> Substring? in
            let file = path.split(separator: "/").last ?? ""
            guard let dot = file.lastIndex(of: "."), extensions.contains(String(file[file.index(after: dot)...])) else { return nil }
            return file[..<dot]
        })
        content.members = members.map { member in
            if let given = member.avatar {
                unclaimed.remove(ContentLayout.avatar(given.value))
                return member
            }
            guard names.contains(Substring(member.id)) else { return member }
            for ext in extensions where unclaimed.contains(ContentLayout.avatar("\(member.id).\(ext)")) {
                unclaimed.remove(ContentLayout.avatar("\(member.id).\(ext)"))
                return Self.member(member, avatar: Located("\(member.id).\(ext)", .fileStart))
            }
            return member
        }
        for path in unclaimed.sorted() {
            diagnostics.append(report(.unexpectedFile(hint: "no member uses this avatar: name it <member>.jpg or set 'avatar'"), path))
        }
    }

    mutating func attachPhotos(_ photos: [String: [String]]) {
        var claimed: Set<String> = []
        content.albums = content.albums.map { album in
            let key = "\(album.group)/\(album.id)"
            claimed.insert(key)
            let files = (photos[key] ?? []).sorted()
            if files.isEmpty { diagnostics.append(report(.emptyAlbum, album.file)) }
            return Self.album(album, imageFiles: files)
        }
        for key in photos.keys.sorted() where !claimed.contains(key) {
            let parts = key.split(separator: "/")
            diagnostics.append(report(.missingFile("index.md"), ContentLayout.album(group: String(parts[0]), id: String(parts[1]))))
        }
    }

    /// A member with its avatar (the one its file does not name, found beside it).
    static func member(_ member: Member, avatar: Located<String>?) -> Member {
        var joined = Member(
            id: member.id, file: member.file, name: member.name, email: member.email, avatar: avatar, joined: member.joined, home: member.home,
            postcode: member.postcode, diving: member.diving, follows: member.follows, friends: member.friends, body: member.body, spans: member.spans)
        joined.left = member.left
        return joined
    }

    /// An album with the photos and videos of its folder.
    static func album(_ album: Album, imageFiles: [String]) -> Album {
        Album(group: album.group, id: album.id, file: album.file, title: album.title, date: album.date, cover: album.cover, by: album.by,
              entries: album.entries, map: album.map, imageFiles: imageFiles, body: album.body, spans: album.spans)
    }

    /// A thread with its messages.
    static func thread(_ thread: Thread, messages: [Message]) -> Thread {
        Thread(id: thread.id, file: thread.file, participants: thread.participants, subject: thread.subject, messages: messages, spans: thread.spans)
    }

    mutating func attachReplies(_ replies: [String: [Reply]], resources: [String: [String]]) {
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
        // A report that is one file takes the replies and files of a folder of its name too (a
        // folder without index.md): a reply, from the forge or a CMS, needs no report moved.
        let known = Set(kept.map(\.id))
        for id in Set(replies.keys).union(resources.keys).sorted() where !known.contains(id) {
            diagnostics.append(report(.missingFile("index.md"), ContentLayout.report(id, bundle: true)))
        }
    }

    mutating func attachMessages(_ messages: [String: [Message]]) {
        let known = Set(content.threads.map(\.id))
        content.threads = content.threads.map { thread in
            let own = Self.ordered(messages: messages[thread.id] ?? [])
            if own.isEmpty { diagnostics.append(report(.threadWithoutMessages, thread.file)) }
            return Self.thread(thread, messages: own)
        }
        for id in messages.keys.sorted() where !known.contains(id) {
            diagnostics.append(report(.missingFile("thread.yaml"), ContentLayout.thread(id)))
        }
    }

    mutating func buildAreas(_ files: [String: Area], reportAreas: Set<String>, directories: [String]) {
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
    mutating func requireIndexFiles(_ directories: [String]) {
        let groups = Set(content.groups.map(\.id))
        for directory in directories {
            let parts = directory.split(separator: "/").map(String.init)
            if parts.count == 2, parts[0] == "groups", content.site.has(.groups), !groups.contains(parts[1]),
               !diagnostics.contains(where: { $0.file == ContentLayout.group(parts[1]) }) {
                diagnostics.append(report(.missingFile("index.md"), ContentLayout.group(parts[1])))
            }
        }
    }

    mutating func sortRecords() {
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
