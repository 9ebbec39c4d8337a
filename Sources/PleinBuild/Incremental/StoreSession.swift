import Foundation
import PleinCore
import PleinLoad
import PleinModel

/// One `plein build`'s use of the build store: opening it, deciding whether the last build's
/// snapshot can be trusted (same plein, theme and settings, and the output folder it wrote),
/// seeing whether anything changed, and saving the new snapshot once the new site is in place.
///
/// Whatever is wrong with the store — missing, damaged, from another version, left by a killed
/// build — the build is a full one, with one line saying why; never a wrong one.
struct StoreSession {
    let options: BuildOptions
    private(set) var store: BuildStore?
    private(set) var previous: BuildStore.Snapshot?
    private(set) var next = BuildStore.Snapshot()
    private(set) var remembered: Remembered?
    /// The paths in which the spare differs from the output, when the store vouches for it.
    private(set) var knownSpare: Set<String>?
    /// Why the build redoes everything although a store was there.
    private(set) var fullBuildReason: String?
    /// A problem with the store that did not stop the build (saving failed).
    private(set) var problem: String?
    /// Set when nothing changed since the last build: its snapshot.
    private(set) var unchanged: BuildStore.Snapshot?
    /// Set when the content changed since the last build only in files of records, edited in
    /// place, new or deleted (a report of one file, a reply), or not at all while the theme did;
    /// HEAD and the day are as they were: those files, the new ones among them and the deleted
    /// ones, for `RecordEdit`.
    private(set) var editedRecordFiles: RecordFiles?
    typealias RecordFiles = (files: [String], added: Set<String>, removed: Set<String>)
    /// Whether the theme changed since the last build (`RecordEdit` takes an edit of its
    /// templates: the outputs that read one).
    private(set) var themeEdited = false
    /// Whether the spare is the one the store describes (else `RecordEdit` writes in place).
    private(set) var spareVouched = false
    /// When HEAD moved since the last build: the content's files whose history moved with it,
    /// and their revisions now (`GitHistory.moved`), for `RecordEdit`.
    private(set) var historyMoved: (files: Set<String>, history: History) = ([], History())

    private let output: String
    private let spare: String

    init(_ options: BuildOptions) {
        self.options = options
        output = URL(fileURLWithPath: options.output).standardizedFileURL.path
        spare = OutputWriter.sparePath(for: output)
        var timer = PhaseTimer(enabled: options.timings)
        do throws(BuildStore.Damaged) {
            let (opened, reset) = try BuildStore.open(cacheRoot: options.cacheRoot)
            store = opened
            do throws(BuildStore.Damaged) {
                let head = try opened.readHead()
                previous = head.snapshot
                fullBuildReason = reset ?? head.unusable
            } catch {
                // Readable as a database but not as a store: start it again.
                fullBuildReason = "the build cache was damaged (\(error.reason))"
                try opened.clear()
            }
        } catch {
            store = nil
            problem = "the build cache cannot be used (\(error.reason)): every build is a full one"
        }
        timer.lap("  store: open, read the last scan")
        next.fingerprint = Remembered.fingerprint(options, leaflet: Leaflet(folder: options.leaflet))
        next.theme = Remembered.themeFingerprint(options.themeFiles)
        // git is asked for HEAD only when the files HEAD is made of changed since the last build.
        let stamp = options.history ? GitStamp(content: options.content, environment: options.environment)?.text ?? "" : ""
        if !stamp.isEmpty, let known = previous, known.headStamp == stamp {
            next.head = known.head
        } else {
            next.head = options.history ? GitHistory.run(["rev-parse", "HEAD"], in: options.content, environment: options.environment)?.text ?? "" : ""
        }
        next.headStamp = stamp
        var outputCheck: Background<String?>?
        if options.fresh, previous != nil {
            previous = nil
        } else if let known = previous {
            if known.fingerprint != next.fingerprint {
                distrust("plein, Leaflet or the build's settings changed since the last build")
            } else if known.liveInode != Self.inode(output) {
                distrust("the output folder is not the one the last build left (removed, replaced, or that build was interrupted)")
            } else if known.outputTime == 0 {
                distrust("the last build stopped before it finished writing the output folder")
            } else {
                // (On another core, while the content is scanned.)
                outputCheck = Background { [output, store, time = known.outputTime] in
                    guard let (paths, count) = try? store?.outputPaths() else { return nil }
                    return OutputCheck.firstChanged(in: output, among: paths, count: count, since: time)
                }
            }
        }
        timer.lap("  store: fingerprints, HEAD")
        let scan = ContentScan(root: options.content, previous: previous?.scan)
        timer.lap("  store: scan")
        if let outputCheck {
            if let changed = outputCheck.value {
                let shown = options.output.hasSuffix("/") ? options.output + changed : options.output + "/" + changed
                distrust("\(shown) was changed or removed since the last build (by hand, or by another program): the whole site is made again, as plein makes it "
                         + "(plein owns the output folder; change the content or the theme instead)")
            }
            timer.lap("  store: the output checked (waited for)")
        }
        next.scan = scan.index
        next.scanChanges = scan.changedChunks
        // HEAD moved (a commit, an amend, a checkout): the files whose history moved with it are
        // edited as if their bytes had changed (their pieces show when they were last changed);
        // none, when no commit between the two touched the content.
        var sameHead = previous?.head == next.head
        var movedRecords: [String] = []
        if let known = previous, !sameHead, scan.complete, let moved = GitHistory.moved(from: known.head, to: next.head, content: options.content,
                                                                                        environment: options.environment) {
            sameHead = true
            historyMoved = moved
            // (Of the files whose history moved, only the records there are show it.)
            movedRecords = scan.index.entries(moved.files).keys.filter(FileRole.hasRevision)
        }
        timer.lap("  store: what HEAD moved")
        if let known = previous, scan.complete, sameHead, movedRecords.isEmpty, known.theme == next.theme,
           Self.sameDay(known.day, now: options.buildTime), scan.isUnchanged {
            unchanged = known
            // Files whose times moved though their bytes did not: the next scan need not read them
            // (nor git be asked again what a commit that left the content alone changed).
            if !scan.changedChunks.isEmpty || known.head != next.head, let store {
                do throws(BuildStore.Damaged) {
                    try store.refreshScan(scan.changedChunks, head: known.head == next.head ? nil : (next.head, next.headStamp))
                } catch {
                    problem = "the build cache could not be saved (\(error.reason))"
                }
            }
        } else if let known = previous, scan.complete, sameHead {
            // (A build on another day than the last is an edit of the day, if of nothing else:
            // the outputs that read which events are past are rendered again.)
            editedRecordFiles = Self.editedRecordFiles(scan.changes, history: movedRecords)
            themeEdited = known.theme != next.theme
            if editedRecordFiles?.files.isEmpty == true, !themeEdited, Self.sameDay(known.day, now: options.buildTime) { editedRecordFiles = nil }
            spareVouched = known.spareInode != 0 && known.spareInode == Self.inode(spare)
        }
        timer.lap("  store: compare")
    }

    /// The files whose bytes changed, when every one of them is a record's file that was there
    /// before and still is (a report's or a reply's, a member's, a group's, an album's, a goal's,
    /// an event's, a page's, a study location's, a member's check-ins, a thread's or a
    /// message's) or `site.yaml`, or a report of one file, a reply, an event or a goal that is new
    /// or deleted, a new member or page, or an album's photo
    /// (not a video) new, replaced or deleted (none, when no file's bytes changed); else nil.
    private static func editedRecordFiles(_ changes: [String: ContentScan.Change], history: [String] = []) -> RecordFiles? {
        // (And the records whose history moved with HEAD.)
        var edited = history.filter { changes[$0] == nil }
        var added: Set<String> = [], removed: Set<String> = []
        for (path, change) in changes {
            let role = FileRole.of(path)
            if change.old == nil || change.new == nil {
                switch role {
                case .report(_, _, bundle: false), .reply: break
                case .event, .goal, .member where change.old == nil, .page where change.old == nil: break
                case .photo where RecordUpdate.isPhoto(path): break
                default: return nil
                }
                if change.old == nil { added.insert(path) }
                if change.new == nil { removed.insert(path) }
            }
            switch role {
            case .report, .reply, .member, .group, .album, .goal, .event, .page, .location, .checkins, .thread, .message, .site: edited.append(path)
            case .photo where RecordUpdate.isPhoto(path): edited.append(path)
            default: return nil
            }
        }
        return (edited.sorted(), added, removed)
    }

    /// Whether the last build was for today, in the site's zone it saved with the day.
    static func sameDay(_ saved: String, now: Moment) -> Bool {
        let parts = saved.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return false }
        return BuildTime.day(of: now, zone: String(parts[1])) == parts[0]
    }

    mutating func distrust(_ reason: String) {
        previous = nil
        fullBuildReason = reason
    }

    /// Reads the rest of the snapshot (or empties the store when there is none to trust), and
    /// records that the spare is about to be worked on.
    mutating func prepare() {
        guard let store else { return }
        var records: (known: KnownRecords, paths: Set<String>)?
        next.content = next.scan.files
        do throws(BuildStore.Damaged) {
            if var known = previous {
                records = try store.readRest(into: &known, recordsMatching: next.content)
                previous = known
                if known.spareInode != 0, known.spareInode == Self.inode(spare) { knownSpare = known.differences }
            } else {
                records = try store.readRecords(matching: next.content, pathsOnly: options.fresh)
                try store.clear()
            }
            try store.forgetSpare()
        } catch {
            distrust("the build cache could not be read (\(error.reason))")
            knownSpare = nil
            records = nil
            do throws(BuildStore.Damaged) { try store.clear(keepingRecords: false) } catch { self.store = nil }
        }
        next.recordPaths = records?.paths ?? []
        // `--fresh` trusts nothing the store holds: every file is read again.
        remembered = Remembered(previous: previous, next: next, known: options.fresh ? nil : records?.known,
                                ahead: previous == nil ? self.store.map { RecordsAhead(store: $0, timings: options.timings) } : nil)
    }

    /// Saves what `state` made once the new site is in place, and tells what changed in the
    /// output (nil when that is not known: a full build without a store, unless asked for).
    /// `spare`: after a build without a snapshot, the paths in which the spare may differ from
    /// the output, when the writer could vouch for it (`OutputWriter.vouchForSpare`).
    mutating func save(_ state: SiteState, warnings: Int, spare vouched: Set<String>?) -> OutputChanges? {
        guard let store, let remembered = state.remembered else { return nil }
        var made = remembered.next
        made.liveInode = Self.inode(output)
        // The spare is now the site the store described, differing in what this build changed;
        // after a build without a snapshot it is the output this build replaced, which the
        // writer may have made one to vouch for.
        if previous != nil {
            made.spareInode = Self.inode(spare)
        } else if let vouched {
            made.spareInode = Self.inode(spare)
            made.differences = vouched
            made.vanished = []
        } else {
            made.spareInode = 0
        }
        made.warnings = warnings
        made.day = state.builtForDay
        made.images = state.imageCount
        made.videos = state.videoCount
        made.problemCounts = state.problemCounts
        made.notes = state.notes
        made.recordsSavedAhead = remembered.ahead?.written ?? false
        // (The spare made the output's twin while the store saves: the one waits on the disk,
        // the other on SQLite and the processor.)
        let twin = made.spareInode != 0 && made.differences.count >= options.twinSpareAfter
            ? Background { [output, spare, differences = made.differences, vanished = made.vanished, timings = options.timings] in
                Self.twinSpare(output: output, spare: spare, differences, vanished: vanished, timings: timings)
            } : nil
        do throws(BuildStore.Damaged) {
            try store.save(made, previous: previous, timings: options.timings)
            if twin?.value == true { try store.forgetDifferences() }
            // (Last: the spare's twin linked the output's files, which moves their change time.)
            try store.stampOutput(output)
        } catch {
            _ = twin?.value
            problem = "the build cache could not be saved (\(error.reason)): the next build is a full one"
            do throws(BuildStore.Damaged) { try store.clear() } catch {}
        }
        return previous == nil ? nil : OutputChanges(added: remembered.added, changed: remembered.changed, removed: remembered.gone)
    }

    /// Makes the spare the output's twin (each path of `differences` linked from the output, or
    /// taken out where it `vanished`), while the system still holds the new files' folders; true
    /// when it did, and the store may record that the spare differs in no path. Else the first
    /// edit after a build that changed most files (a new title or theme, search turned on or off)
    /// links them all: 10 s at 100,000 reports. Not after a site's very first build, whose spare
    /// is empty: the first edit links the site into it (a fraction of that build). Killed
    /// half-way, the spare still differs in no path but these, which the store still names.
    static func twinSpare(output: String, spare: String, _ differences: Set<String>, vanished: Set<String>, timings: Bool) -> Bool {
        guard let first = try? FileManager.default.contentsOfDirectory(atPath: spare), !first.isEmpty else { return false }
        var timer = PhaseTimer(enabled: timings)
        let writer: OutputWriter
        do throws(OutputWriter.Failure) { writer = try OutputWriter(output: output, knownSpare: differences) } catch { return false }
        var whole = true
        do throws(OutputWriter.Failure) {
            for path in differences.sorted() {
                if vanished.contains(path) { writer.remove(path) } else { try writer.keep(path) }
            }
        } catch {
            // (The differences stand: the next edit fixes them up.)
            whole = false
        }
        // (The staging folder, now the output's twin, is the spare again.)
        writer.discard()
        timer.lap("  the spare made the output's twin (\(differences.count) paths, on another thread)")
        return whole
    }

    /// After a build that failed before its swap, in which plein changed the output's files only
    /// by linking them into the staging folder: records that the output is still as plein left
    /// it, when this build found it so (else the next build looks again, and trusts nothing).
    /// When the build put nothing into the staging folder (`spareAsBefore`: it stopped on errors
    /// in the content before any output), the spare went back as the store described it, and
    /// the store vouches for it again: the edit that fixes the error goes record by record, not
    /// the whole way (at 100,000 reports, 1.7 s rather than 93).
    func outputUntouched(spareAsBefore: Bool) {
        guard let previous, let store else { return }
        do throws(BuildStore.Damaged) {
            try store.stampOutput(output)
            if spareAsBefore, previous.spareInode != 0, previous.spareInode == Self.inode(spare) { try store.vouchForSpare(inode: previous.spareInode) }
        } catch {}
    }

    /// Empties the store, so that the next build is a full one.
    mutating func forget() {
        do throws(BuildStore.Damaged) { try store?.clear() } catch { store = nil }
    }

    static func inode(_ path: String) -> UInt64 {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }
}

extension OutputChanges {
    /// The differences between two output folders, file by file (a hard link shared by both is
    /// the same file): for a build that had no snapshot to compare with.
    static func compare(old: String, new: String) -> OutputChanges {
        let before = files(old), after = files(new)
        var changes = OutputChanges()
        for (path, identity) in after {
            guard let earlier = before[path] else {
                changes.added.append(path)
                continue
            }
            if earlier != identity, FileManager.default.contentsEqual(atPath: old + "/" + path, andPath: new + "/" + path) == false {
                changes.changed.append(path)
            }
        }
        changes.removed = before.keys.filter { after[$0] == nil }
        changes.added.sort()
        changes.changed.sort()
        changes.removed.sort()
        return changes
    }

    /// Every file below `root` (hidden top-level entries aside) with its inode.
    private static func files(_ root: String) -> [String: UInt64] {
        var found: [String: UInt64] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return found }
        while let path = walker.nextObject() as? String {
            if path.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            var info = stat()
            if lstat(root + "/" + path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR { found[path] = UInt64(info.st_ino) }
        }
        return found
    }
}
