public import PleinCore

// The loads after an edit: of the paths that changed only (`reload`), and of edited records in
// place, the rest of the content as it was (`reload(_:content:diagnostics:fs:changed:)`,
// `reloadInPlace`).

extension ContentLoader {
    /// Loads again after `changed` paths (files or folders, content-relative) were created,
    /// modified or removed, reading only those. A change to `site.yaml` lists everything again
    /// (but when every changed file was edited in place), and reads every file again when the
    /// site's time zone changed.
    public static func reload(_ previous: ContentState, fs: ContentFS, changed: Set<String>, timings: Bool = false) -> (LoadResult, ContentState) {
        if changed.contains("") { return loadKeepingState(fs, timings: timings) }
        // (Those the edit did not change are taken as they were read, unless the time zone changed.)
        if changed.contains(ContentLayout.site) { return loadKeepingState(fs, known: nil, reusing: (previous, changed), timings: timings) }
        var timer = PhaseTimer(enabled: timings)
        var state = previous
        // List again the folder of every changed path (new folders are walked whole).
        var folders: Set<String> = []
        for path in changed { folders.insert(FileTree.parent(of: path)) }
        for folder in folders.sorted() where !folders.contains(where: { folder.hasPrefix($0 + "/") || ($0.isEmpty && !folder.isEmpty) }) {
            state.tree.refresh(fs, folder)
        }
        let current = state.tree.files
        for path in state.parsed.keys where current[path] == nil { state.parsed.removeValue(forKey: path) }
        for path in state.images.keys where current[path] == nil { state.images.removeValue(forKey: path) }
        let touched = current.filter { path, _ in
            (FileRole.section(of: path).map(state.site.has) ?? true)
                && (changed.contains(path) || changed.contains(where: { path.hasPrefix($0 + "/") })
                    || (state.parsed[path] == nil && state.images[path] == nil))
        }.keys.sorted().map { ($0, current[$0]!) }
        for item in parse(touched, fs: fs, clock: state.site.clock) { state.parsed[item.path] = item }
        state.fresh = Set(touched.map(\.0))
        for path in touched.map(\.0) where state.images[path] != nil { state.images.removeValue(forKey: path) }
        for (image, problem) in Assembler.inspectImages(touched, fs: fs) { state.images[image.path] = (image, problem) }
        timer.lap("  read (\(touched.count))")
        let result = assemble(state, displayRoot: fs.displayRoot)
        timer.lap("  assemble")
        return (result, state)
    }

    /// Loads again after `changed` paths were created, modified or removed, as `reload` does,
    /// into `state` and the `content` and `diagnostics` of the load `state` is from; and tells
    /// what changed. When only files of records were edited, each still read without an error
    /// (and with no problem but those its own records give: `reloadInPlace(tolerating:)`), only
    /// those records are made again, in place (nothing else of the content is copied), their
    /// problems take the place of those they had, and the change names their files
    /// (`ContentChange.records`).
    public static func reload(_ state: inout ContentState, content: inout Content, diagnostics: inout [Diagnostic], fs: ContentFS,
                              changed: Set<String>, timings: Bool = false) -> ContentChange {
        // A path that neither is there nor was at the last load changes nothing: a file an editor
        // wrote beside the edited one and renamed over it (`sed -i`, an editor's safe write), or
        // made and took away, between two looks.
        let changed = changed.filter { path in path.isEmpty || state.tree.files[path] != nil || state.tree.directories.contains(path) || isListed(path, fs) }
        if changed.isEmpty { return .nothing }
        // `site.yaml` edited only in what pages show of it: taken in place, the records as they were.
        if changed.contains(ContentLayout.site), settingsInPlace(&state, &content, diagnostics: diagnostics, fs: fs) {
            let records = changed.subtracting([ContentLayout.site])
            if records.isEmpty { return .records([ContentLayout.site]) }
            let change = reload(&state, content: &content, diagnostics: &diagnostics, fs: fs, changed: records, timings: timings)
            return change.then(.records([ContentLayout.site]))
        }
        if let (added, problems, albums) = reloadRecords(&state, &content, diagnostics: diagnostics, fs: fs, changed: changed, tolerating: true,
                                                         photos: true) {
            // (The edited files' problems now, in place of those the last load found in them; and
            // whether the albums whose photos changed have none.)
            diagnostics = (diagnostics.filter { diagnostic in
                if albums.contains(diagnostic.file), case .emptyAlbum = diagnostic.problem { return false }
                return !changed.contains(diagnostic.file) || Self.isOfJoinedFiles(diagnostic.problem)
            } + problems).sorted()
            return .records(changed.union(albums), added: added)
        }
        let loaded: LoadResult
        (loaded, state) = reload(state, fs: fs, changed: changed, timings: timings)
        (content, diagnostics) = (loaded.content, loaded.diagnostics)
        return .everything
    }

    /// Takes in `site.yaml` edited in place in what only pages show of it
    /// (`SiteConfig.differsOnlyInWhatPagesShow`: its title, its description), read without a
    /// problem now and before: its settings and its text, in place; false, with nothing changed,
    /// for any other edit of it.
    private static func settingsInPlace(_ state: inout ContentState, _ content: inout Content, diagnostics: [Diagnostic], fs: ContentFS) -> Bool {
        guard state.siteDiagnostics.isEmpty, !diagnostics.contains(where: { $0.file == ContentLayout.site }) else { return false }
        var tree = state.tree
        guard tree.take(fs, edited: [ContentLayout.site], added: []), let size = tree.files[ContentLayout.site] else { return false }
        var problems: [Diagnostic] = []
        let (read, text) = SourceReader(fs: fs, clock: .utc).read(ContentLayout.site, size: size, schema: Schemas.site, into: &problems)
        guard problems.isEmpty, let read, let text else { return false }
        let site = SiteConfig(read.object)
        guard site.differsOnlyInWhatPagesShow(from: state.site) else { return false }
        (state.tree, state.site, state.siteText) = (tree, site, text)
        content.site = site
        content.sources[ContentLayout.site] = text
        return true
    }

    /// The records of `changed` files made again in place, as `reload` makes them when it can
    /// (`ContentChange.records`), with the new files among them; nil, with `content` as it was,
    /// when it cannot (and then nothing is reloaded).
    ///
    /// With `tolerating`, files with warnings (no error) before or after are made again too, when
    /// every problem the last load found in them is one their own records give (their reading's,
    /// and those `Assembler` finds in each record alone): then `problems` are the edited files'
    /// problems now, in place of those. Album photos among `changed` are taken in as `reload`
    /// takes them; `albums` are then the files of their albums, whose records changed.
    public static func reloadInPlace(_ state: inout ContentState, content: inout Content, diagnostics: [Diagnostic], fs: ContentFS,
                                     changed: Set<String>, tolerating: Bool = false)
        -> (added: Set<String>, problems: [Diagnostic], albums: Set<String>)? {
        reloadRecords(&state, &content, diagnostics: diagnostics, fs: fs, changed: changed, tolerating: tolerating, photos: true)
    }

    /// The reload of edited records, file by file, and of new and deleted reports, replies,
    /// events and goals, new pages and members; returns the new files. Nil when the edit is of
    /// another kind: a file that is no record's (`site.yaml`, `places.yaml`, an area, a photo, an
    /// attachment); a file that appeared or vanished in a new folder, or of another kind, or a
    /// report's that has a folder; a file
    /// with a problem before or after; a record whose change reaches what the rules that span
    /// records read (a member's address, an avatar it names, a group's name). `content` is then
    /// as it was, and `state` at most holds the changed files' new sizes (which the full reload
    /// lists again).
    ///
    /// With `photos`, photos (not videos) added to, replaced in or deleted from an album, each read
    /// without a problem, are taken in too: the album's list of files changes, and its file is
    /// returned among `albums` (the change is of its record; `problems` says when it has no photos).
    private static func reloadRecords(_ state: inout ContentState, _ content: inout Content, diagnostics: [Diagnostic], fs: ContentFS,
                                      changed: Set<String>, tolerating: Bool, photos: Bool)
        -> (added: Set<String>, problems: [Diagnostic], albums: Set<String>)? {
        // (Without `tolerating`, a file with any problem goes the whole way.)
        func fine(_ problems: [Diagnostic]) -> Bool { tolerating ? !problems.hasErrors : problems.isEmpty }
        guard !changed.isEmpty, !changed.contains(""), !changed.contains(ContentLayout.site) else { return nil }
        // (Each folder listed once, here and by the tree's `take`: the folder of two thousand
        // members' files was most of what an edit of one of them cost to load.)
        var listings: [String: [ContentFS.Entry]?] = [:]
        func listing(_ folder: String) -> [ContentFS.Entry]? {
            if let known = listings[folder] { return known }
            let entries = try? fs.list(folder)
            listings[folder] = .some(entries)
            return entries
        }
        func listed(_ path: String) -> Bool {
            let folder = FileTree.parent(of: path)
            let name = path.dropFirst(folder.isEmpty ? 0 : folder.count + 1)
            return listing(folder)?.contains { $0.name == name } ?? false
        }
        var added: Set<String> = [], removed: Set<String> = []
        // A report of one file: none of its name has a folder (whose replies it would take).
        func single(_ area: String, _ name: String) -> Bool { !state.tree.directories.contains(ContentLayout.areaFolder(area) + "/" + name) }
        // Photos by album file: those added, and those deleted; and the albums whose photos changed.
        var photosAdded: [String: Set<String>] = [:], photosRemoved: [String: Set<String>] = [:], photoFiles: Set<String> = []
        var photoAlbums: Set<String> = []
        for path in changed {
            guard FileRole.section(of: path).map(state.site.has) ?? true else { return nil }
            if case .photo(let group, let id) = FileRole.of(path) {
                let album = ContentLayout.album(group: group, id: id)
                guard photos, FileRole.imageExtensions.contains(FileRole.splitExtension(path).ext.lowercased()),
                      let record = state.parsed[album], record.read != nil, fine(record.diagnostics),
                      !diagnostics.contains(where: { $0.file == path }) else { return nil }
                switch (state.images[path] != nil, listed(path)) {
                case (false, true): photosAdded[album, default: []].insert(path)
                case (true, false): photosRemoved[album, default: []].insert(path)
                case (true, true): break  // (replaced)
                case (false, false): return nil
                }
                photoFiles.insert(path)
                photoAlbums.insert(album)
                continue
            }
            if let before = state.parsed[path], state.tree.files[path] != nil, !listed(path) {
                // A report of one file, a reply, an event or a goal deleted.
                switch (before.role, fine(before.diagnostics)) {
                case (.report(let area, let name, bundle: false), true) where single(area, name): break
                case (.reply, true), (.event, true), (.goal, true): break
                default: return nil
                }
                removed.insert(path)
                continue
            }
            guard let before = state.parsed[path] else {
                // A new report of one file, a new reply, a group's new event or goal, a new page,
                // or a new member (no avatar beside their file that no one claimed before).
                switch FileRole.of(path) {
                case .report(let area, let name, bundle: false) where single(area, name): break
                case .reply, .event, .goal, .page: break
                case .member(let id) where !Assembler.avatarExtensions.contains(where: { state.tree.files[ContentLayout.avatar("\(id).\($0)")] != nil }):
                    break
                default: return nil
                }
                added.insert(path)
                continue
            }
            guard before.read != nil, fine(before.diagnostics) else { return nil }
            switch FileRole.of(path) {
            case .report, .reply, .member, .group, .album, .goal, .event, .page, .location, .checkins, .thread, .message: break
            default: return nil
            }
        }
        // A file with a problem of the whole content (an id taken twice, a date its name contradicts)
        // goes the whole way; but for what the files joined to it say, which its own edit leaves
        // as it was (an album without photos, a thread without messages).
        if !tolerating {
            guard !diagnostics.contains(where: { changed.contains($0.file) && !Self.isOfJoinedFiles($0.problem) }) else { return nil }
        } else {
            // Each edited or deleted file's problems are those its reading and its records alone
            // give (made again from what was read before), and no other.
            let before = changed.subtracting(added).subtracting(photoFiles).sorted().compactMap { state.parsed[$0] }
            guard let made = RecordEdits(read: before, added: [], content: content, displayRoot: fs.displayRoot, tolerating: true) else { return nil }
            let own = (before.flatMap(\.diagnostics) + made.problems).sorted()
            let found = diagnostics.filter { changed.contains($0.file) && !Self.isOfJoinedFiles($0.problem) }.sorted()
            guard own == found else { return nil }
        }
        // Sizes are taken in only when nothing else changed; the rest of the state is changed
        // once every file has been read and made into its record.
        // An album's photos after the edit.
        var albums: [(index: Int, files: [String])] = []
        for album in photoAlbums.sorted() {
            guard let index = content.albums.firstIndex(where: { $0.file == album }) else { return nil }
            func names(_ paths: Set<String>?) -> Set<String> { Set((paths ?? []).map { String($0.split(separator: "/").last!) }) }
            albums.append((index, Set(content.albums[index].imageFiles).union(names(photosAdded[album])).subtracting(names(photosRemoved[album])).sorted()))
        }
        let newPhotos = Set(photosAdded.values.joined()), gonePhotos = Set(photosRemoved.values.joined())
        guard state.tree.take(fs, edited: changed.subtracting(added).subtracting(removed).subtracting(newPhotos).subtracting(gonePhotos),
                              added: added.union(newPhotos), removed: removed.union(gonePhotos), listing: listing) else { return nil }
        let touched = changed.subtracting(removed).subtracting(photoFiles).sorted().map { ($0, state.tree.files[$0]!) }
        let read = parse(touched, fs: fs, clock: state.site.clock)
        // (A photo is what its first bytes say, within the size photos may have.)
        let inspected = Assembler.inspectImages(photoFiles.subtracting(gonePhotos).sorted().map { ($0, state.tree.files[$0]!) }, fs: fs)
        guard read.allSatisfy({ $0.read != nil && fine($0.diagnostics) }), inspected.allSatisfy({ $0.1 == nil }),
              var made = RecordEdits(read: read, added: added, removed: removed, content: content, displayRoot: fs.displayRoot,
                                     tolerating: tolerating) else { return nil }
        made.apply(to: &content)
        for (index, files) in albums { content.albums[index] = Assembler.album(content.albums[index], imageFiles: files) }
        for path in gonePhotos {
            state.parsed.removeValue(forKey: path)
            state.images.removeValue(forKey: path)
            content.images.removeValue(forKey: path)
        }
        for (image, _) in inspected {
            state.parsed[image.path] = Parsed(path: image.path, role: FileRole.of(image.path), read: nil, text: nil, image: nil, diagnostics: [])
            state.images[image.path] = (image, nil)
            content.images[image.path] = image
        }
        for item in read {
            if let text = item.text { content.sources[item.path] = text }
            state.parsed[item.path] = item
        }
        for path in removed {
            content.sources.removeValue(forKey: path)
            state.parsed.removeValue(forKey: path)
        }
        state.fresh = changed
        // (An album without photos now has that problem, in place of the one it had: `albums`.)
        let empty = albums.filter { $0.files.isEmpty }.map { Diagnostic(.emptyAlbum, in: content.albums[$0.index].file, at: .fileStart) }
        return (added, (read.flatMap(\.diagnostics) + made.problems + empty).sorted(), photoAlbums)
    }

    /// Whether `path`'s folder lists it.
    static func isListed(_ path: String, _ fs: ContentFS) -> Bool {
        let folder = FileTree.parent(of: path)
        let name = path.dropFirst(folder.isEmpty ? 0 : folder.count + 1)
        return (try? fs.list(folder))?.contains { $0.name == name } ?? false
    }
}
