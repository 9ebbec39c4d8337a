import Foundation
import GRDB
import GRDBSQLite
import PleinCheck
import PleinCore
import PleinLoad
import PleinMarkdown
import PleinModel
import PleinRender

/// `plein build` after edits of records in place, new or deleted reports of one file, replies,
/// events and goals, new members and pages (`StoreSession.editedRecordFiles`): `plein serve`'s update of the same edit
/// (`ContentChange.records`), made from the build store instead of a site in memory. The stages are serve's: the part of the content the edited records reach
/// is loaded as the last build read it (`ContentSlice`, from the store's records), the edited
/// records made again in it (`ContentLoader.reloadInPlace`), checked (`Checker.check(_:records:)`)
/// and modelled (`ModelBuilder.replace(records:…)`) in the model the store keeps (every piece but
/// the reports', of which those the edit reads); then the bodies and facts of the pieces made
/// again, compared with the store's. The outputs that read a fact that changed are found in the
/// store's record of what each output read, and rendered from the pieces of the model they read
/// (`StoredModel`); the spare is fixed up in the paths the store names, and the store is changed
/// in those rows only. Its cost follows the edit, not the size of the site.
///
/// Whenever the edit reaches further, it gives way, before it has changed anything, to the build
/// that loads everything (nil): an edit serve's update would not take record by record (but for
/// files with warnings, which this edit takes); an error, or problems this build cannot tell
/// from the last build's; a change of what the media
/// are made from (a member's home, an album's map); outputs that may be others than before (but
/// for a report's page, added or taken out with it, and its reply feed, with its first reply or
/// its last; a new or deleted event's page and calendar; a new member's page and feeds; a new
/// page); a new member's
/// address written in a text (a warning there); a
/// Pagefind failing (the shards whose records read a changed fact are made again, and those
/// the site now has, `searchChange`); pages of a members-only group
/// (sealed with keys the build that loads everything derives). With `PLEIN_TIMINGS` it says why.
///
/// The update itself, up to the outputs to render and what renders them, is `RecordUpdate`,
/// over any memory of the last build (`BuildMemory`); this is its `plein build`: over the store
/// (`StoreMemory`), rendering into the spare, and saving what changed in the store.
struct RecordEdit {
    let options: BuildOptions
    let store: BuildStore
    let previous: BuildStore.Snapshot
    let next: BuildStore.Snapshot
    /// Whether the store vouches for the spare: the new files go there and the two are swapped.
    let spareVouched: Bool
    /// The update, over what the store remembers of the last build.
    let update: RecordUpdate

    init(options: BuildOptions, store: BuildStore, previous: BuildStore.Snapshot, next: BuildStore.Snapshot, files: [String],
         added: Set<String>, removed: Set<String>, themeEdited: Bool = false, historyMoved: (files: Set<String>, history: History) = ([], History()),
         spareVouched: Bool) {
        (self.options, self.store, self.previous, self.next, self.spareVouched) = (options, store, previous, next, spareVouched)
        update = RecordUpdate(options: options, memory: StoreMemory(store: store, previous: previous, next: next), files: files, added: added,
                              removed: removed, themeEdited: themeEdited, historyMoved: historyMoved)
    }

    /// Nil, for the build that loads everything, and why (with `PLEIN_TIMINGS`).
    private func giveUp(_ reason: String, _ timer: inout PhaseTimer) -> BuildReport? {
        timer.lap("record by record no further: " + reason)
        return nil
    }

    func build(start: DispatchTime, timer: inout PhaseTimer) -> BuildReport? {
        if let failed = unreadable(start: start, &timer) { return failed }
        // An edit written into the output itself could be cut off half-way by a kill, leaving
        // neither site: without a spare the store vouches for, the build that loads everything
        // writes the site beside it and swaps it in.
        guard spareVouched else { return giveUp("no spare the store vouches for", &timer) }
        guard let plan = update.plan(&timer) else { return nil }
        let (loaded, model, diagnostics, problemCounts) = (plan.loaded, plan.model, plan.diagnostics, plan.problemCounts)
        let (changedFacts, gone, bodies, changedBodies) = (plan.changedFacts, plan.gone, plan.bodies, plan.changedBodies)
        let (stale, newOutputs, vanished, source, renderer, search) = (plan.stale, plan.newOutputs, plan.vanished, plan.source, plan.renderer, plan.search)
        let media = plan.media
        let content = loaded.content
        let warnings = previous.warnings + plan.warningsAdded
        // (The spare's differences from the output.)
        var differences: (all: Set<String>, vanished: Set<String>) = ([], [])
        do {
            try store.queue.read { db in
                for row in try Row.fetchAll(db, sql: "SELECT path, vanished FROM differences") {
                    differences.all.insert(row[0])
                    if row[1] as Int != 0 { differences.vanished.insert(row[0]) }
                }
            }
        } catch {
            return giveUp("the store could not give the spare's differences", &timer)
        }

        // From here on the spare is worked on: a failure is a failed build, as in a full one.
        do throws(BuildStore.Damaged) { try store.forgetSpare() } catch { return giveUp("the store could not be changed", &timer) }
        var failure: String?
        var missing: String?
        var outputs: [RenderStage.Rendered] = []
        if !stale.isEmpty || !newOutputs.isEmpty || !vanished.isEmpty || !search.writes.isEmpty || !search.removed.isEmpty || !media.writes.isEmpty
            || !media.removed.isEmpty {
            do throws(OutputWriter.Failure) {
                var steps = PhaseTimer(enabled: options.timings)
                let writer = try OutputWriter(output: options.output, knownSpare: differences.all)
                var stage = RenderStage(renderer: renderer, tracking: true, stream: writer, timings: options.timings)
                stage.hashing = true
                let (made, streamFailure) = stage.run(stale.map(\.id) + newOutputs)
                outputs = made
                steps.lap("  render")
                if let streamFailure { writer.discard(); throw streamFailure }
                // A piece the store should hold and did not give: these outputs are not right.
                let lacking = source.damaged() + renderer.missingPieces
                if let piece = lacking.first {
                    writer.discard()
                    missing = "the build cache lacks \(piece)" + (lacking.count > 1 ? " and \(lacking.count - 1) more" : "")
                    throw OutputWriter.Failure(path: options.output, reason: missing!)
                }
                for (source, target) in search.writes { try writer.copy(source, as: target) }
                for path in search.removed { writer.remove(path) }
                steps.lap("  the search's files (\(search.writes.count) written, \(search.removed.count) removed)")
                for (source, target) in media.writes { try writer.copy(source, as: target) }
                for path in media.removed { writer.remove(path) }
                if !media.writes.isEmpty || !media.removed.isEmpty {
                    steps.lap("  the photos' files (\(media.writes.count) written, \(media.removed.count) removed)")
                }
                // (The spare's differences left are those of the last edit that this one did not
                // write: a new output among them, at the path of one an edit took out, stays.)
                var paths = Set(stale.map(\.path))
                paths.formUnion(made.map(\.file.path))
                paths.formUnion(search.writes.map(\.target) + search.removed + media.writes.map(\.target) + media.removed)
                let gone = Set(vanished.values)
                for path in differences.all.sorted() where !paths.contains(path) && !gone.contains(path) {
                    if differences.vanished.contains(path) { writer.remove(path) } else { try writer.keep(path) }
                }
                for path in gone.sorted() where !paths.contains(path) { writer.remove(path) }
                steps.lap("  the spare's other differences (\(differences.all.count))")
                try writer.commit()
                steps.lap("  commit")
            } catch {
                failure = error.description
            }
        }
        timer.lap("render and write (\(outputs.count) outputs\(outputs.count <= 12 ? ": " + outputs.map(\.id.key).sorted().joined(separator: ", ") : ""))")
        var notes = previous.notes
        let old = Dictionary(uniqueKeysWithValues: stale.map { ($0.key, $0) })
        let changedPaths = (outputs.filter { old[$0.id.key]?.hash != $0.hash }.map(\.file.path) + search.writes.map(\.target)
                            + media.writes.map(\.target)).sorted()
        let addedPaths = outputs.filter { old[$0.id.key] == nil }.map(\.file.path) + search.added + media.added
        let removedPaths = Set(vanished.values).subtracting(outputs.map(\.file.path)).union(search.removed).union(media.removed).sorted()
        let (pages, files) = (previous.pages + addedPaths.count { $0.hasSuffix(".html") } - removedPaths.count { $0.hasSuffix(".html") },
                              previous.files + addedPaths.count - removedPaths.count)
        if failure == nil {
            // A build that changed most files (a title, a layout) leaves the spare the output's
            // twin, on another thread while the store saves, so that the edit after it does not
            // link them all (`StoreSession.twinSpare`).
            let output = URL(fileURLWithPath: options.output).standardizedFileURL.path
            // (Before the twin is begun, which works on the spare under another name.)
            let spareInode = StoreSession.inode(OutputWriter.sparePath(for: output))
            let twin = changedPaths.count + removedPaths.count >= options.twinSpareAfter
                ? Background { [differences = Set(changedPaths + removedPaths), vanished = Set(removedPaths), timings = options.timings] in
                    StoreSession.twinSpare(output: output, spare: OutputWriter.sparePath(for: output), differences, vanished: vanished, timings: timings)
                } : nil
            do throws(BuildStore.Damaged) {
                var values = changedFacts.map { fact in (fact.key, source.pieces[fact.key]) }.filter { $0.1 != nil || gone.contains($0.0) }
                if changedFacts.contains(where: { $0.key == Facts.siteKey }) { values.append((ModelValues.siteKey, model.site)) }
                // (A new member: who the members are, for the edits of reports after this one.)
                let members = update.added.contains { FileRole.of($0).isMember } ? content.memberIndex : nil
                try save(loaded.state, day: BuildStore.day(of: model), spareInode: spareInode, facts: changedFacts, values: values, members: members,
                         bodies: bodies, changedBodies: changedBodies,
                         outputs: outputs, old: old,
                         gone: (outputs: Array(vanished.keys), paths: removedPaths), fragments: source.made(),
                         search: search, media: (media.identities, media.removed), differences: changedPaths.isEmpty && removedPaths.isEmpty ? nil : changedPaths,
                         problems: problemCounts == previous.problemCounts && warnings == previous.warnings ? nil : (problemCounts, warnings),
                         counts: addedPaths.isEmpty && removedPaths.isEmpty ? nil : (pages, files, previous.images + media.count))
                if twin?.value == true {
                    try store.forgetDifferences()
                    // (Last: the twin linked the output's files, which moves their change time.)
                    try store.stampOutput(output)
                }
            } catch {
                _ = twin?.value
                notes.append("the build cache could not be saved (\(error.reason)): the next build is a full one")
                do throws(BuildStore.Damaged) { try store.clear() } catch {}
            }
            timer.lap("store: save")
        } else {
            // The output may have been changed by hand: the next build trusts nothing.
            do throws(BuildStore.Damaged) { try store.clear() } catch {}
        }
        // (The texts the problems shown point into, by the path they are shown with.)
        var sources: [String: String] = [:]
        for file in Set(diagnostics.map(\.file)) where file.hasPrefix(content.displayRoot + "/") {
            sources[file] = content.sources[String(file.dropFirst(content.displayRoot.count + 1))]
        }
        var report = BuildReport(
            diagnostics: diagnostics, sources: sources, succeeded: failure == nil, pages: pages, files: files,
            images: previous.images + media.count, imagesMade: media.made, imagesReused: 0, seconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9,
            failure: failure, notes: notes)
        report.warnings = warnings
        report.videos = previous.videos
        report.recordByRecord = true
        // (The store emptied: the build that loads everything follows, in this run.)
        report.redoFully = missing
        // (A one-off build leaves the model and what it loaded, tens of thousands of objects, to
        // the process's end.)
        if options.leavesMemoryToExit { Leftovers.keep((loaded, model, source, outputs)) }
        guard failure == nil else { return report }
        report.unchanged = outputs.isEmpty && removedPaths.isEmpty && search.writes.isEmpty && media.writes.isEmpty && warnings == previous.warnings
        // (The cache folders of the indexes made again: the output holds copies of their files.)
        for key in search.replacedKeys { SearchStage.remove(key, in: options.cacheRoot + "/search") }
        report.changes = OutputChanges(added: addedPaths.sorted(), changed: changedPaths.filter { !addedPaths.contains($0) }, removed: removedPaths)
        report.rendered = outputs.count
        report.renderedOutputs = outputs.map(\.id.key).sorted()
        return report
    }
}

extension RecordEdit {
    /// An edited file that cannot be read on its own (its YAML does not parse, a value is not of
    /// its type): its errors, and the output and the store as they were, without the rest of the
    /// content loaded (which said the same and more, what follows from it: at 100,000 reports,
    /// 15 s for a quote left open). Nil when every edited file reads.
    private func unreadable(start: DispatchTime, _ timer: inout PhaseTimer) -> BuildReport? {
        let paths = update.files.filter { !update.removed.contains($0) && $0 != ContentLayout.site && !RecordUpdate.isPhoto($0) }
        guard !paths.isEmpty, let site = (try? update.memory.settings()) ?? nil else { return nil }
        let sizes = next.scan.entries(paths)
        let fs = ContentFS.disk(options.content)
        let (errors, texts) = ContentLoader.readingErrors(paths.compactMap { path in sizes[path].map { (path, Int($0.size)) } }, fs: fs,
                                                          clock: site.clock)
        guard !errors.isEmpty else { return nil }
        timer.lap("the edited files read: \(errors.count) error\(errors.count == 1 ? "" : "s")")
        var report = BuildReport(
            diagnostics: errors.map { $0.under(fs.displayRoot) }, sources: Dictionary(uniqueKeysWithValues: texts.map { (fs.displayRoot + "/" + $0.key, $0.value) }),
            succeeded: false, pages: previous.pages, files: previous.files, images: previous.images, imagesMade: 0, imagesReused: 0,
            seconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9, failure: nil, notes: [])
        report.warnings = previous.warnings
        report.recordByRecord = true
        return report
    }

    /// Changes the store's rows that this build changed, in one transaction: the edited files'
    /// scan rows and records, the facts that changed and the pieces whose fact changed, the
    /// bodies that changed, the outputs rendered (their hashes and what they read), the parts of
    /// outputs made for the fragment memory (`StoredFragments`), and the spare's differences
    /// (nil: nothing was written, the spare is as it was).
    private func save(_ loaded: ContentState, day: String, spareInode: UInt64, facts: [(key: String, value: [UInt8]?)], values: [(String, (any Encodable & Sendable)?)],
                      members: MemberIndex?, bodies: BodiesStage, changedBodies: Set<String>, outputs: [RenderStage.Rendered], old: [String: RememberedOutput],
                      gone: (outputs: [String], paths: [String]), fragments: [String: StoredFragments.Part], search: SearchChange,
                      media: (written: [(path: String, identity: String)], removed: [String]), differences: [String]?, problems: (counts: [String: Int], warnings: Int)?,
                      counts: (pages: Int, files: Int, images: Int)?) throws(BuildStore.Damaged) {
        let output = URL(fileURLWithPath: options.output).standardizedFileURL.path
        var timer = PhaseTimer(enabled: options.timings)
        do {
            try store.queue.write { db in
                let rows = StoreRows(db: db)
                var meta = ["saved": UUID().uuidString, "theme": next.theme, "head": next.head, "head_stamp": next.headStamp, "day": day,
                            "live_inode": String(StoreSession.inode(output)),
                            // (The output was swapped and the spare written before: nothing of plein's changes them after this.)
                            "spare_inode": String(spareInode), "output_time": String(OutputCheck.now(near: output))]
                if let problems {
                    let files = problems.counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }
                    (meta["problem_files"], meta["warnings"]) = (files.joined(separator: "\n"), String(problems.warnings))
                }
                if let counts { (meta["pages"], meta["files"], meta["images"]) = (String(counts.pages), String(counts.files), String(counts.images)) }
                try rows.meta(meta)
                try BuildStore.putScan(db, next.scanChanges)
                try BuildStore.putRecords(db, from: loaded, gone: update.removed)
                timer.lap("    save: meta, scan and records")
                try rows.facts(facts)
                try rows.values(values.map { key, value in (key, value.map { ModelValues.encode($0) }) }
                                + (members.map { [(ModelValues.memberIndexKey, $0.packed)] } ?? []))
                timer.lap("    save: facts and values")
                try rows.bodies(changedBodies.sorted().compactMap { file in bodies.bodies[file].map { (file, $0, bodies.digests[file] ?? []) } },
                                gone: update.removed)
                var keyIDs: [String: Int32] = [:]
                var newKeys: [(id: Int, key: String)] = []
                var nextID = try Int32.fetchOne(db, sql: "SELECT coalesce(max(id), -1) + 1 FROM dependency_keys") ?? 0
                // (Tens of thousands of keys for a page that lists every report: through SQLite's own calls.)
                let findKey = try RawStatement(db, "SELECT id FROM dependency_keys WHERE key = ?")
                func ids(_ dependencies: Set<Dependency>) throws -> [Int32] {
                    var reads: [Int32] = []
                    for key in dependencies.map(\.key) {
                        if let id = keyIDs[key] {
                            reads.append(id)
                        } else if let id = try findKey.integer(.text(key)).map(Int32.init) {
                            keyIDs[key] = id
                            reads.append(id)
                        } else {
                            newKeys.append((Int(nextID), key))
                            keyIDs[key] = nextID
                            reads.append(nextID)
                            nextID += 1
                        }
                    }
                    return reads.sorted()
                }
                timer.lap("    save: bodies")
                // An output that read what it read before keeps its reads; its hash is written.
                var (written, hashes): ([StoreRows.Output], [(id: String, hash: [UInt8])]) = ([], [])
                for output in outputs {
                    // (Made on the rendering core: `RenderStage.hashing`.)
                    let digest = output.reads.isEmpty ? ReadsDigest.digest(output.dependencies.lazy.map(ReadsDigest.hash)) : output.reads
                    if let before = old[output.id.key], before.reads == digest {
                        if before.hash != output.hash { hashes.append((output.id.key, output.hash)) }
                        continue
                    }
                    written.append(StoreRows.Output(id: output.id.key, path: output.file.path, hash: output.hash, dependencies: try ids(output.dependencies),
                                                    reads: digest))
                }
                try rows.outputs(written, hashes: hashes, gone: gone.outputs)
                // The search index's shards made again, and their files.
                try rows.searchIndexes(try search.remade.map { ($0.name, $0.key, try ids($0.reads)) }, all: false)
                if let order = search.order { try rows.searchIndexes(order: order) }
                try rows.keys(newKeys)
                try rows.published(search.identities + media.written, gone: search.removed + media.removed, all: false)
                timer.lap("    save: outputs and the search's files")
                try StoredFragments.forget(readersOf: facts.map(\.key), db)
                try StoredFragments.save(fragments, db)
                timer.lap("    save: fragments")
                if let differences { try rows.differences(differences.map { ($0, false) } + gone.paths.map { ($0, true) }) }
            }
        } catch {
            throw BuildStore.Damaged(reason: "\(error)")
        }
    }
}
