import Foundation
import GRDB
import GRDBSQLite
import PleinCheck
import PleinCore
import PleinLoad
import PleinMarkdown
import PleinModel
import PleinRender

/// `plein build` after edits of reports' and replies' texts only (`StoreSession.editedReportFiles`):
/// the dev server's record-by-record update (`ContentChange.records`) for reports, made from the build store
/// instead of a site in memory. Only those reports are read, checked, modelled and turned into
/// facts; the outputs that read a fact that changed are found in the store's record of what each
/// output read, and rendered from the pieces of the model they read (`StoredModel`); the spare
/// is fixed up in the paths the store names, and the store is changed in those rows only. Its
/// cost follows the edit, not the size of the site.
///
/// Whenever the edit reaches further (a problem in a file of those reports, before or after;
/// a report's time, author or replies' times changed, which other parts of the model read; a
/// site with search, whose index is made from the whole model), it gives way, before it has
/// changed anything, to the build that loads everything (nil).
struct ReportEdit {
    let options: BuildOptions
    let store: BuildStore
    let previous: BuildStore.Snapshot
    let next: BuildStore.Snapshot
    let files: [String]

    /// One output to render again, as the last build left it.
    private struct Stale {
        let key: String
        let id: OutputID
        let path: String
        let hash: [UInt8]
    }

    /// What was made of one edited report.
    private struct Made {
        let model: ReportModel
        let texts: [String: String]
        let records: [(path: String, hash: [UInt8], encoded: [UInt8])]
    }

    func build(start: DispatchTime, timer: inout PhaseTimer) -> BuildReport? {
        let queue = store.queue
        guard let site = try? queue.read({ db in try BuildStore.value(db, ModelValues.siteKey, as: SiteConfig.self) }) ?? nil,
              !(site.search && options.pagefind != nil) else { return nil }
        // The reports edited, by id, each with the files it is made from.
        var reportIDs: Set<String> = []
        for path in files {
            switch FileRole.of(path) {
            case .report(let area, let name, _): reportIDs.insert(area + "/" + name)
            case .reply(let area, let report, _): reportIDs.insert(area + "/" + report)
            default: return nil
            }
        }
        let changed = Set(files)
        let context = KnownRecords.context(clock: site.clock)
        var made: [String: Made] = [:]
        var members = MemberIndex([Member]())
        var covered: Set<String> = []
        var differences: (all: Set<String>, vanished: Set<String>) = ([], [])
        do {
            try queue.read { db in
                for row in try Row.fetchAll(db, sql: "SELECT path, vanished FROM differences") {
                    differences.all.insert(row[0])
                    if row[1] as Int != 0 { differences.vanished.insert(row[0]) }
                }
                guard let index = try BuildStore.value(db, ModelValues.membersKey, as: MemberIndex.self) else { throw Unfit() }
                members = index
                for id in reportIDs.sorted() {
                    guard let old = try BuildStore.value(db, Dependency.report(id).key, as: ReportModel.self) else { throw Unfit() }
                    let replies = old.replies.map(\.file)
                    let paths = [old.file] + replies
                    // No file of an edited report had a problem at the last build.
                    guard !paths.contains(where: previous.problemFiles.contains) else { throw Unfit() }
                    covered.formUnion(paths)
                    let entries = next.scan.entries(paths)
                    var known = KnownRecords(records: [:], context: context)
                    for path in paths where !changed.contains(path) {
                        guard let row = try Row.fetchOne(db, sql: "SELECT hash, context, record FROM records WHERE path = ?", arguments: [path]),
                              row[1] as String == context, [UInt8](row[0] as Data) == entries[path]?.hash else { throw Unfit() }
                        known.records[path] = ([UInt8](row[0] as Data), [UInt8](row[2] as Data))
                    }
                    let sizes = Dictionary(paths.map { ($0, Int(entries[$0]?.size ?? 0)) }, uniquingKeysWith: { a, _ in a })
                    guard let remade = ContentLoader.remakeReport(file: old.file, replies: replies, resources: old.resources, changed: changed, sizes: sizes,
                                                                  known: known, fs: .disk(options.content), clock: site.clock)
                    else { throw Unfit() }
                    // What was read is what the scan saw (else the file changed again meanwhile).
                    guard remade.records.allSatisfy({ $0.hash == entries[$0.path]?.hash }) else { throw Unfit() }
                    // The rules that look at a report read it and the members, nothing else.
                    var content = Content(site: site, memberIndex: members)
                    content.reports = [remade.report]
                    content.sources = remade.texts
                    guard Checker.check(content, reports: [id]).isEmpty,
                          let model = ModelBuilder.remade(remade.report, old: old, index: members, revision: { file in
                              // HEAD is where it was: each file's history is what the last build read.
                              file == old.file ? old.revision : old.replies.first { $0.file == file }?.revision
                          })
                    else { throw Unfit() }
                    made[id] = Made(model: model, texts: remade.texts, records: remade.records)
                }
            }
        } catch {
            return nil
        }
        // Every edited file is one the last build made one of these reports from.
        guard Set(made.keys) == reportIDs, changed.isSubset(of: covered) else { return nil }
        timer.lap("load, check and model \(reportIDs.count) edited report\(reportIDs.count == 1 ? "" : "s")")

        // Bodies, then facts: those of the edited reports only, compared with the store's.
        let routes = Routes(baseURL: site.baseURL)
        let jobs = made.keys.sorted().flatMap { Bodies.jobs(report: made[$0]!.model, routes: routes) }
        let digests = Dictionary(jobs.map { ($0.file, BodiesStage.digest($0)) }, uniquingKeysWith: { a, _ in a })
        var oldDigests: [String: [UInt8]] = [:]
        var oldFacts: [String: [UInt8]] = [:]
        var facts: [(String, [UInt8])] = []
        var rendered: [String: RenderedMarkdown] = [:]
        do {
            try queue.read { db in
                for job in jobs {
                    oldDigests[job.file] = try Data.fetchOne(db, sql: "SELECT digest FROM bodies WHERE file = ?", arguments: [job.file]).map { [UInt8]($0) }
                }
                let stale = jobs.filter { oldDigests[$0.file] != digests[$0.file] }
                rendered = Dictionary(uniqueKeysWithValues: stale.map { ($0.file, Bodies.render([$0], routes: routes)[$0.file]!) })
                for job in jobs where rendered[job.file] == nil { rendered[job.file] = try BuildStore.body(db, file: job.file) }
                for id in made.keys.sorted() {
                    facts += Facts.report(made[id]!.model, bodies: digests) { rendered[$0] }
                }
                for (key, _) in facts {
                    oldFacts[key] = try Data.fetchOne(db, sql: "SELECT hash FROM facts WHERE key = ?", arguments: [key]).map { [UInt8]($0) }
                }
            }
        } catch {
            return nil
        }
        let changedFacts = facts.filter { oldFacts[$0.0] != $0.1 }
        let changedBodies = Set(jobs.map(\.file).filter { oldDigests[$0] != digests[$0] })
        timer.lap("markdown (\(changedBodies.count) bodies) and facts (\(changedFacts.count) changed)")

        // The outputs that read a changed fact, from what each output read at the last build.
        let stale: [Stale]
        do {
            stale = try Self.readers(of: Set(changedFacts.map(\.0)), queue)
        } catch {
            return nil
        }
        timer.lap("outputs to render (\(stale.count))")
        // A page of a group, where members-only groups may be, is sealed with keys that the
        // build that loads everything derives.
        if !options.passphrases.isEmpty, stale.contains(where: { $0.id.isGroupPage }) { return nil }

        let (theme, themeProblems) = ThemeLoader.load(options.themeFiles, language: site.language)
        guard let theme, themeProblems.isEmpty else { return nil }
        // From here on the spare is worked on: a failure is a failed build, as in a full one.
        do throws(BuildStore.Damaged) { try store.forgetSpare() } catch { return nil }
        let models = Dictionary(uniqueKeysWithValues: made.values.map { ($0.model.id, $0.model) })
        let source = StoredModel(queue: queue, site: site, reports: models, bodies: rendered)
        let renderer = Renderer(
            source: source, theme: theme,
            options: RenderOptions(pageFooterInjection: options.pageFooterInjection, leaflet: Leaflet(folder: options.leaflet)?.assets,
                                   threadKeys: options.secret.flatMap(ThreadKeys.init(secret:)), search: false))
        var failure: String?
        var outputs: [RenderStage.Rendered] = []
        if !stale.isEmpty {
            do throws(OutputWriter.Failure) {
                let writer = try OutputWriter(output: options.output, knownSpare: differences.all)
                var stage = RenderStage(renderer: renderer, tracking: true, stream: writer, timings: options.timings)
                stage.hashing = true
                let (made, streamFailure) = stage.run(stale.map(\.id))
                outputs = made
                if let streamFailure { writer.discard(); throw streamFailure }
                let paths = Set(stale.map(\.path))
                for path in differences.all.sorted() where !paths.contains(path) {
                    if differences.vanished.contains(path) { writer.remove(path) } else { try writer.keep(path) }
                }
                try writer.commit()
            } catch {
                failure = error.description
            }
        }
        timer.lap("render and write (\(outputs.count) outputs\(outputs.count <= 12 ? ": " + outputs.map(\.id.key).sorted().joined(separator: ", ") : ""))")
        var notes = previous.notes
        let old = Dictionary(uniqueKeysWithValues: stale.map { ($0.key, $0) })
        let changedPaths = outputs.filter { old[$0.id.key]?.hash != $0.hash }.map(\.file.path).sorted()
        if failure == nil {
            do throws(BuildStore.Damaged) {
                try save(made: Array(made.values), context: context, facts: changedFacts, bodies: rendered.filter { changedBodies.contains($0.key) },
                         digests: digests, outputs: outputs, differences: stale.isEmpty ? nil : changedPaths)
            } catch {
                notes.append("the build cache could not be saved (\(error.reason)): the next build is a full one")
                do throws(BuildStore.Damaged) { try store.clear() } catch {}
            }
            timer.lap("store: save")
        } else {
            // The output may have been changed by hand: the next build trusts nothing.
            do throws(BuildStore.Damaged) { try store.clear() } catch {}
        }
        var report = BuildReport(
            diagnostics: [], sources: [:], succeeded: failure == nil, pages: previous.pages, files: previous.files, images: previous.images,
            imagesMade: 0, imagesReused: 0, seconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9,
            failure: failure, notes: notes)
        report.warnings = previous.warnings
        report.videos = previous.videos
        guard failure == nil else { return report }
        report.unchanged = stale.isEmpty
        report.changes = OutputChanges(changed: changedPaths)
        report.rendered = outputs.count
        report.renderedOutputs = outputs.map(\.id.key).sorted()
        return report
    }

    private struct Unfit: Error {}

    /// The outputs that read any of `keys`, found in what each output read (its dependencies, as
    /// indexes into `dependency_keys`), read straight from SQLite's statement.
    private static func readers(of keys: Set<String>, _ queue: DatabaseQueue) throws -> [Stale] {
        guard !keys.isEmpty else { return [] }
        return try queue.read { db -> [Stale] in
            var ids: Set<Int32> = []
            for key in keys {
                if let id = try Int32.fetchOne(db, sql: "SELECT id FROM dependency_keys WHERE key = ?", arguments: [key]) { ids.insert(id) }
            }
            guard !ids.isEmpty else { return [] }
            let wanted = Array(ids)
            var found: [Stale] = []
            let statement = try db.makeStatement(sql: "SELECT id, path, hash, dependencies FROM outputs")
            let raw = statement.sqliteStatement
            defer { sqlite3_reset(raw) }
            while sqlite3_step(raw) == SQLITE_ROW {
                let count = Int(sqlite3_column_bytes(raw, 3)) / 4
                guard count > 0, let blob = sqlite3_column_blob(raw, 3) else { continue }
                let reads = UnsafeRawBufferPointer(start: blob, count: count * 4)
                // (Millions of reads at 100,000 reports, a few keys: compared one by one, not hashed.)
                var hit = false
                for index in 0..<count {
                    let read = Int32(littleEndian: reads.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
                    if wanted.count <= 16 ? wanted.contains(read) : ids.contains(read) {
                        hit = true
                        break
                    }
                }
                guard hit, let key = sqlite3_column_text(raw, 0), let path = sqlite3_column_text(raw, 1) else { continue }
                let hashCount = Int(sqlite3_column_bytes(raw, 2))
                let hash = hashCount > 0 ? [UInt8](UnsafeRawBufferPointer(start: sqlite3_column_blob(raw, 2), count: hashCount)) : []
                let name = String(cString: key)
                // (An output whose key names none is one this build cannot render: it goes the whole way.)
                guard let id = OutputID(key: name) else { throw Unfit() }
                found.append(Stale(key: name, id: id, path: String(cString: path), hash: hash))
            }
            return found
        }
    }

    /// Changes the store's rows that this build changed, in one transaction: the edited files'
    /// scan rows and records, the facts that changed, the edited reports' pieces and bodies, the
    /// outputs rendered (their hashes and what they read), and the spare's differences (nil:
    /// nothing was written, the spare is as it was).
    private func save(made: [Made], context: String, facts: [(String, [UInt8])], bodies: [String: RenderedMarkdown], digests: [String: [UInt8]],
                      outputs: [RenderStage.Rendered], differences: [String]?) throws(BuildStore.Damaged) {
        let output = URL(fileURLWithPath: options.output).standardizedFileURL.path
        do {
            try store.queue.write { db in
                let putMeta = try db.makeStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
                try putMeta.execute(arguments: ["saved", UUID().uuidString])
                try putMeta.execute(arguments: ["live_inode", String(StoreSession.inode(output))])
                try putMeta.execute(arguments: ["spare_inode", String(StoreSession.inode(OutputWriter.sparePath(for: output)))])
                try BuildStore.putScan(db, next.scanChanges)
                let putRecord = try db.makeStatement(sql: "INSERT OR REPLACE INTO records (path, hash, context, record) VALUES (?, ?, ?, ?)")
                for (path, hash, encoded) in made.flatMap(\.records) {
                    try putRecord.execute(arguments: [path, Data(hash), context, Data(encoded)])
                }
                let putFact = try db.makeStatement(sql: "INSERT OR REPLACE INTO facts (key, hash) VALUES (?, ?)")
                for (key, hash) in facts { try putFact.execute(arguments: [key, Data(hash)]) }
                let putValue = try db.makeStatement(sql: "INSERT OR REPLACE INTO model_values (key, value) VALUES (?, ?)")
                for report in made.map(\.model) { try putValue.execute(arguments: [Dependency.report(report.id).key, Data(ModelValues.encode(report))]) }
                let putBody = try BuildStore.bodyStatement(db)
                for (file, body) in bodies.sorted(by: { $0.key < $1.key }) { try BuildStore.put(body, file: file, digest: digests[file] ?? [], with: putBody) }
                var keyIDs: [String: Int32] = [:]
                var nextID = try Int32.fetchOne(db, sql: "SELECT coalesce(max(id), -1) + 1 FROM dependency_keys") ?? 0
                let findKey = try db.makeStatement(sql: "SELECT id FROM dependency_keys WHERE key = ?")
                let putKey = try db.makeStatement(sql: "INSERT INTO dependency_keys (id, key) VALUES (?, ?)")
                let putOutput = try db.makeStatement(sql: "UPDATE outputs SET hash = ?, dependencies = ? WHERE id = ?")
                for output in outputs {
                    var reads: [Int32] = []
                    for key in output.dependencies.map(\.key).sorted() {
                        if let id = keyIDs[key] {
                            reads.append(id)
                        } else if let id = try Int32.fetchOne(findKey, arguments: [key]) {
                            keyIDs[key] = id
                            reads.append(id)
                        } else {
                            try putKey.execute(arguments: [nextID, key])
                            keyIDs[key] = nextID
                            reads.append(nextID)
                            nextID += 1
                        }
                    }
                    try putOutput.execute(arguments: [Data(output.hash), BuildStore.pack(reads.sorted()), output.id.key])
                }
                if let differences {
                    try db.execute(sql: "DELETE FROM differences")
                    let putDifference = try db.makeStatement(sql: "INSERT INTO differences (path, vanished) VALUES (?, 0)")
                    for path in differences { try putDifference.execute(arguments: [path]) }
                }
            }
        } catch {
            throw BuildStore.Damaged(reason: "\(error)")
        }
    }
}
