import Foundation
import PleinCore
@testable import PleinRender
@testable import PleinBuild
import Testing

/// The search index: what goes in (only what public pages show), how it is split, that an edit
/// re-indexes only its shard, and that a build without Pagefind still succeeds.
@Suite(.serialized) struct SearchTests {
    static func options(output: String, content: String = Repo.content) throws -> BuildOptions {
        var options = BuildOptions.test(content: content, output: output, suite: "search")
        options.pagefind = try #require(Pagefind.locate(ProcessInfo.processInfo.environment), "Pagefind is not installed (`make deps` installs pagefind-bin)")
        return options
    }

    /// The cache folders of the indexes, by shard name.
    static func cachedIndexes(_ options: BuildOptions) -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: options.cacheRoot + "/search")) ?? []).filter { $0 != "shared" })
    }

    /// Builds the site of `options` into `output`, with a search cache of its own (the photos'
    /// and videos' files copied from the first): whether it succeeded.
    static func buildFromNothing(_ options: BuildOptions, into output: String, cache: String) throws -> Bool {
        var fresh = options
        fresh.output = output
        fresh.cache = cache
        try FileManager.default.createDirectory(atPath: fresh.cacheRoot, withIntermediateDirectories: true)
        for media in ["images", "videos"] {
            try FileManager.default.copyItem(atPath: options.cacheRoot + "/" + media, toPath: fresh.cacheRoot + "/" + media)
        }
        return Pipeline.build(fresh).succeeded
    }

    /// The files under `folder`, relative to it, in path order.
    static func files(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { files.append(path) }
        }
        return files.sorted()
    }

    /// A record goes to Pagefind as JSON that reads back as the record, whatever its text holds.
    /// Where Python's `pagefind-bin` keeps Pagefind is asked once, then remembered for the
    /// environment that asked (a Python start on every build, an edit's and a no-op's, was
    /// 40–90 ms of them), and asked again when that environment changes.
    @Test func wherePythonKeepsPagefindIsRemembered() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PLEIN_PAGEFIND"] = nil
        // (Pagefind on the PATH is found without Python: not what this tests.)
        environment["PATH"] = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .filter { access("\($0)/pagefind", X_OK) != 0 && access("\($0)/pagefind_extended", X_OK) != 0 }.joined(separator: ":")
        let folder = NSTemporaryDirectory() + "plein-pagefind-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/pagefind-location"
        let found = try #require(Pagefind.locate(environment, remembering: file), "Pagefind is not installed (`make deps` installs pagefind-bin)")
        let kept = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(kept.count == 2 && kept[1] == found)
        // What is remembered is what is used (another pagefind-bin's program put there stands for
        // it), while the environment is the same and the program is there; never a program
        // elsewhere than in a pagefind-bin package's folder.
        let other = folder + "/site-packages/pagefind_bin/pagefind"
        try FileManager.default.createDirectory(atPath: folder + "/site-packages/pagefind_bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: other)
        try (kept[0] + "\n" + other).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(Pagefind.locate(environment, remembering: file) == other)
        for elsewhere in [folder + "/gone/pagefind_bin/pagefind", "/bin/true"] {
            try (kept[0] + "\n" + elsewhere).write(toFile: file, atomically: true, encoding: .utf8)
            #expect(Pagefind.locate(environment, remembering: file) == found)
        }
        try (kept[0] + "\n" + other).write(toFile: file, atomically: true, encoding: .utf8)
        environment["VIRTUAL_ENV"] = folder
        #expect(Pagefind.locate(environment, remembering: file) == found)
    }

    @Test func aRecordReachesPagefindAsItIs() throws {
        let record = SearchRecord(url: "/reports/1094/x/", content: "Regel één\n\"aanhalingstekens\" \\ \u{2028} \u{1F600} <b>&",
                                  meta: ["title": "Titel \"x\"", "kind": "Melding"], filters: ["kind": ["Melding"], "area": ["1094", "Oost"]],
                                  sort: ["date": "2026-10-02T10:00:00+02:00"])
        let bytes = Pagefind.addRecord(record, index: 3, language: "nl")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(decoded["type"] as? String == "AddRecord" && decoded["index_id"] as? Int == 3 && decoded["language"] as? String == "nl")
        #expect(decoded["url"] as? String == record.url && decoded["content"] as? String == record.content)
        #expect(decoded["meta"] as? [String: String] == record.meta && decoded["sort"] as? [String: String] == record.sort)
        #expect(decoded["filters"] as? [String: [String]] == record.filters)
    }

    /// A Pagefind that answers one record with an error and the rest at length: the index fails
    /// with its error, and nothing waits forever on a pipe nobody reads (issue 58).
    @Test(.timeLimit(.minutes(1))) func aPagefindErrorNeverHangsTheBuild() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plein-fake-pagefind-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("pagefind").path
        try """
            #!/usr/bin/env python3
            import sys, base64, json
            inp, out, buf, n = sys.stdin.buffer, sys.stdout.buffer, b"", 0
            def reply(mid, payload):
                out.write(base64.b64encode(json.dumps({"message_id": mid, "payload": payload}).encode()) + b","); out.flush()
            while True:
                c = inp.read(1)
                if not c: break
                if c != b",": buf += c; continue
                msg = json.loads(base64.b64decode(buf)); buf = b""
                kind, mid = msg["payload"]["type"], msg["message_id"]
                if kind == "NewIndex": reply(mid, {"type": "NewIndex", "index_id": 1})
                elif kind == "AddRecord":
                    n += 1
                    reply(mid, {"type": "Error", "message": "fake error"} if n == 1 else {"type": "AddRecord", "filler": "x" * 20000})
                else: reply(mid, {"type": "GetFiles", "files": []})
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let records = (0..<400).map { SearchRecord(url: "/r/\($0)/", content: String(repeating: "woord ", count: 200), meta: ["title": "R\($0)"], filters: [:], sort: [:]) }
        guard case .failure(let failure) = Pagefind(executable: script).index(records, language: "nl") else {
            Issue.record("an index whose record Pagefind refused is no index")
            return
        }
        #expect(failure.description.contains("fake error"))
    }

    @Test func addressesNeverReachTheIndex() {
        #expect(SearchText.withoutAddresses("mail anna@example.org, or <bram@x.nl> today") == "mail  or  today")
        #expect(SearchText.withoutAddresses("mailto:zoe@example.com\nnext line") == "\nnext line")
        #expect(SearchText.withoutAddresses("at 10:00 @home, a@b and x@") == "at 10:00 @home, a@b and x@")
    }

    @Test func theDemoIsIndexedInShardsAndEveryPageHasTheBox() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let options = try Self.options(output: dir.path + "/public")
        let report = Pipeline.build(options)
        #expect(report.succeeded, "\(report.diagnostics.map(\.message)) \(report.failure ?? "")")
        let index = dir.path + "/public/pagefind"
        let shards = try FileManager.default.contentsOfDirectory(atPath: index).sorted()
        let areas = try FileManager.default.contentsOfDirectory(atPath: Repo.content + "/reports").filter { !$0.hasSuffix(".yaml") }
        #expect(shards == (["community"] + areas.map { "area-" + $0 }).sorted())
        let fm = FileManager.default
        #expect(fm.fileExists(atPath: index + "/community/pagefind.js"), "the first index has Pagefind's script")
        #expect(fm.fileExists(atPath: index + "/community/pagefind-entry.json"))
        #expect(fm.fileExists(atPath: index + "/area-1011/pagefind-entry.json"))
        #expect(!fm.fileExists(atPath: index + "/area-1011/pagefind.js"), "the other indexes are merged into the first")
        for shard in shards {
            let files = Self.files(in: index + "/" + shard)
            #expect(!files.contains { $0.hasPrefix("pagefind-ui") || $0.hasPrefix("pagefind-component-ui") }, "\(shard): \(files)")
            #expect(files.contains { $0.hasPrefix("wasm.nl") }, "\(shard): \(files)")
        }
        let page = try String(contentsOfFile: dir.path + "/public/search/index.html", encoding: .utf8)
        #expect(page.contains("data-indexes=\"[&quot;/pagefind/community/&quot;,&quot;/pagefind/area-"))
        #expect(page.contains("<a href=\"/reports/1011/\">"), "without JavaScript, the areas")
        let home = try String(contentsOfFile: dir.path + "/public/index.html", encoding: .utf8)
        #expect(home.contains("<form class=\"site-search\" role=\"search\" action=\"/search/\">"))
    }

    @Test func theRecordsHoldOnlyWhatPublicPagesShow() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        var options = try Self.options(output: dir.path + "/public")
        options.secret = Array("search-secret-kelder-fles".utf8)
        let shards = SiteState(options, tracking: false).searchShards()
        let all = shards.flatMap(\.records)
        let text = all.map { $0.content + " " + $0.meta.values.joined(separator: " ") + " " + $0.url }.joined(separator: "\n")
        #expect(text.contains("Zomeravondmarkt"), "a report's title")
        #expect(text.contains("Anna de Vries"), "a member's name")
        #expect(text.contains("zeenaald"), "a photo's caption")
        // Words only in the private group (its text, goals and events) and in a message thread.
        for word in ["feestdagen", "verjaardagen", "Omringdijk", "Kerstdiner"] { #expect(!text.contains(word), "a private group: \(word)") }
        #expect(!text.contains("Oriëntatieduik"), "a message thread")
        #expect(!text.contains("@example"), "e-mail addresses")
        #expect(!all.contains { $0.url.contains("/progress/") || $0.url.contains("/messages/") })
        let kinds = Set(all.compactMap { $0.filters["kind"]?.first })
        #expect(kinds == ["Melding", "Lid", "Groep", "Album", "Foto", "Evenement", "Studieplek", "Pagina"])
        #expect(text.contains("Meedoen"), "a page of the site's own")
        // Unlisted groups are rendered, but listed nowhere: not in search either.
        let unlisted = try FileManager.default.contentsOfDirectory(atPath: Repo.content + "/groups").filter { group in
            let text = (try? String(contentsOfFile: Repo.content + "/groups/\(group)/index.md", encoding: .utf8)) ?? ""
            return text.contains("visibility: unlisted")
        }
        #expect(!unlisted.isEmpty)
        for group in unlisted { #expect(!all.contains { $0.url.contains("/groups/\(group)/") }, "\(group)") }
    }

    @Test func anEditReindexesOnlyItsShard() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try FileManager.default.copyItem(atPath: Repo.content, toPath: dir.path + "/content")
        let options = try Self.options(output: dir.path + "/public", content: dir.path + "/content")
        // Only the search part of the cache starts empty: photos and videos are not what this tests.
        try? FileManager.default.removeItem(atPath: options.cacheRoot + "/search")
        for store in ["build.sqlite", "build.sqlite-wal", "build.sqlite-shm"] { try? FileManager.default.removeItem(atPath: options.cacheRoot + "/" + store) }
        #expect(Pipeline.build(options).succeeded)
        let before = Self.cachedIndexes(options)
        let report = dir.path + "/content/reports/1011/2026-08-22-nachtmarkt-nieuwmarkt.md"
        try (String(contentsOfFile: report, encoding: .utf8) + "\nMet een draaiorgel.\n").write(toFile: report, atomically: true, encoding: .utf8)
        // (The first edit after a build without a snapshot goes the whole way: no spare the
        // store vouches for; the next goes record by record.)
        let edited = Pipeline.build(options)
        #expect(edited.succeeded)
        let after = Self.cachedIndexes(options)
        #expect(before.count == after.count)
        #expect(after.subtracting(before).map { $0.components(separatedBy: "-").prefix(2).joined(separator: "-") } == ["area-1011"])
        let live = dir.path + "/public/pagefind/area-1011"
        let manifest = try String(contentsOfFile: options.cacheRoot + "/search/" + after.subtracting(before).first! + "/" + SearchStage.manifest, encoding: .utf8)
        #expect(Self.files(in: live) == manifest.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted())
        // A member's bio: the community's index, built record by record (`RecordEdit`: the
        // shard's records from the build store).
        let member = dir.path + "/content/users/sophie-bakker.md"
        try (String(contentsOfFile: member, encoding: .utf8) + "\nZe fotografeert graag vogels.\n").write(toFile: member, atomically: true, encoding: .utf8)
        let bio = Pipeline.build(options)
        #expect(bio.succeeded && bio.recordByRecord)
        let community = Self.cachedIndexes(options).subtracting(after)
        #expect(community.map { $0.components(separatedBy: "-")[0] } == ["community"])
        // Built again from nothing, the index is the same, byte for byte (`PagefindFiles`).
        #expect(try Self.buildFromNothing(options, into: dir.path + "/again", cache: dir.path + "/other-cache"))
        #expect(Self.files(in: dir.path + "/public/pagefind") == Self.files(in: dir.path + "/again/pagefind"))
        for file in Self.files(in: dir.path + "/public/pagefind") {
            #expect(FileManager.default.contentsEqual(atPath: dir.path + "/public/pagefind/" + file, andPath: dir.path + "/again/pagefind/" + file), "\(file)")
        }
    }

    /// An area of more reports than an index holds (`SearchRecords.most`: 128 on a small site)
    /// is cut into parts, each report placed by a hash of its id: an edit indexes again the part
    /// that holds its report, record by record; when the area has few enough again, its parts
    /// are one index, as a build from nothing makes it, byte for byte.
    @Test func anAreaOfManyReportsIsIndexedInPartsAndAnEditIndexesOne() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try FileManager.default.copyItem(atPath: Repo.content, toPath: dir.path + "/content")
        let area = dir.path + "/content/reports/1011"
        let model = try String(contentsOfFile: area + "/2026-08-22-nachtmarkt-nieuwmarkt.md", encoding: .utf8)
        let extra = (0..<140).map { String(format: "2026-07-%02d-markt-%03d.md", $0 % 28 + 1, $0) }
        for (index, name) in extra.enumerated() {
            try model.replacingOccurrences(of: "Zomeravondmarkt op de Nieuwmarkt", with: "Markt nummer \(index)")
                .replacingOccurrences(of: "2026-08-22T", with: "2026-07-\(String(format: "%02d", index % 28 + 1))T")
                .write(toFile: area + "/" + name, atomically: true, encoding: .utf8)
        }
        let options = try Self.options(output: dir.path + "/public", content: dir.path + "/content")
        try? FileManager.default.removeItem(atPath: options.cacheRoot + "/search")
        for store in ["build.sqlite", "build.sqlite-wal", "build.sqlite-shm"] { try? FileManager.default.removeItem(atPath: options.cacheRoot + "/" + store) }
        #expect(Pipeline.build(options).succeeded)
        let folders = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/public/pagefind").filter { $0.hasPrefix("area-1011") }.sorted()
        #expect(folders == ["area-1011~0of2", "area-1011~1of2"])
        let search = try String(contentsOfFile: dir.path + "/public/search/index.html", encoding: .utf8)
        #expect(search.contains("/pagefind/area-1011~0of2/") && search.contains("/pagefind/area-1011~1of2/"))
        // (The first build after one without a snapshot goes the whole way.)
        #expect(Pipeline.build(options).succeeded)
        let before = Self.cachedIndexes(options)
        let edited = area + "/" + extra[17]
        try (String(contentsOfFile: edited, encoding: .utf8) + "\nMet een draaiorgel.\n").write(toFile: edited, atomically: true, encoding: .utf8)
        let edit = Pipeline.build(options)
        #expect(edit.succeeded && edit.recordByRecord)
        let part = SearchRecords.bucket("1011/" + String(extra[17].dropLast(3)), of: 2)
        #expect(Self.cachedIndexes(options).subtracting(before).map { $0.components(separatedBy: "-").prefix(2).joined(separator: "-") }
                == ["area-1011~\(part)of2"])
        // Fewer reports again: one index, record by record, as a build from nothing makes it.
        for name in extra.prefix(30) { try FileManager.default.removeItem(atPath: area + "/" + name) }
        let fewer = Pipeline.build(options)
        #expect(fewer.succeeded)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/public/pagefind").filter { $0.hasPrefix("area-1011") } == ["area-1011"])
        #expect(try Self.buildFromNothing(options, into: dir.path + "/again", cache: dir.path + "/other-cache"))
        #expect(Self.files(in: dir.path + "/public") == Self.files(in: dir.path + "/again"))
        for file in Self.files(in: dir.path + "/public/pagefind").map({ "pagefind/" + $0 }) + ["search/index.html"] {
            #expect(FileManager.default.contentsEqual(atPath: dir.path + "/public/" + file, andPath: dir.path + "/again/" + file), "\(file)")
        }
    }

    /// `plein serve` makes again the index of the shard an edit reaches and no other
    /// (`LastBuild.search`), serves every file of it and none the old one had alone, and takes
    /// the old one's cache folder away; an edit of a page template reaches no shard.
    @Test func serveReindexesOnlyTheShardAnEditReaches() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try FileManager.default.copyItem(atPath: Repo.content, toPath: dir.path + "/content")
        try FileManager.default.copyItem(atPath: Repo.templates, toPath: dir.path + "/templates")
        var options = try Self.options(output: dir.path + "/public", content: dir.path + "/content")
        options.templates = dir.path + "/templates"
        try? FileManager.default.removeItem(atPath: options.cacheRoot + "/search")
        var state = SiteState(options, tracking: true)
        #expect(state.succeeded)
        let before = Self.cachedIndexes(options)
        let report = "reports/1011/2026-08-22-nachtmarkt-nieuwmarkt.md"
        try (String(contentsOfFile: options.content + "/" + report, encoding: .utf8) + "\nMet een draaiorgel.\n")
            .write(toFile: options.content + "/" + report, atomically: true, encoding: .utf8)
        let update = state.update(content: [report], templates: [])
        let after = Self.cachedIndexes(options)
        #expect(after.subtracting(before).map { $0.components(separatedBy: "-").prefix(2).joined(separator: "-") } == ["area-1011"])
        #expect(before.subtracting(after).map { $0.components(separatedBy: "-").prefix(2).joined(separator: "-") } == ["area-1011"])
        let folder = try #require(after.subtracting(before).first)
        let manifest = try String(contentsOfFile: options.cacheRoot + "/search/" + folder + "/" + SearchStage.manifest, encoding: .utf8)
        let files = Set(manifest.split(separator: "\n").map { "pagefind/area-1011/" + $0.split(separator: "\t")[0] })
        #expect(Set(state.files.keys.filter { $0.hasPrefix("pagefind/area-1011/") }) == files)
        for path in files {
            guard case .disk(let source) = state.files[path] else { Issue.record("\(path) is not served from the cache"); continue }
            #expect(FileManager.default.fileExists(atPath: source), "\(path)")
        }
        #expect(update.changed.contains { $0.hasPrefix("pagefind/area-1011/") } && !update.changed.contains { $0.hasPrefix("pagefind/area-1012/") })
        // A page template: the pages that use it, and no index.
        let group = options.templates + "/pages/group.mustache"
        try (String(contentsOfFile: group, encoding: .utf8) + "<!-- edited -->\n").write(toFile: group, atomically: true, encoding: .utf8)
        let templated = state.update(content: [], templates: ["pages/group.mustache"])
        #expect(state.succeeded && templated.rendered > 0 && !templated.changed.contains { $0.hasPrefix("pagefind/") })
        #expect(Self.cachedIndexes(options) == after)
    }

    /// A cache folder a killed plein left half removed (its list of files gone, others there) is
    /// made again: the finished build has every file of that index.
    @Test func anIndexLeftHalfRemovedIsMadeAgain() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        var options = try Self.options(output: dir.path + "/public")
        let shared = options.cacheRoot
        options.cache = dir.path + "/cache"
        // A search cache of its own; the photos' and videos' files copied from the suite's.
        try FileManager.default.createDirectory(atPath: options.cacheRoot, withIntermediateDirectories: true)
        for media in ["images", "videos"] { try? FileManager.default.copyItem(atPath: shared + "/" + media, toPath: options.cacheRoot + "/" + media) }
        #expect(Pipeline.build(options).succeeded)
        let key = try #require(Self.cachedIndexes(options).first { $0.hasPrefix("area-1011-") })
        let folder = options.cacheRoot + "/search/" + key
        let listed = try #require(SearchStage.files(root: options.cacheRoot + "/search", key: key)).map(\.path).sorted()
        try FileManager.default.removeItem(atPath: folder + "/" + SearchStage.manifest)
        #expect(!Self.files(in: folder).isEmpty, "the folder still holds files")
        // (The build store emptied: a full build, as after a plein of another version.)
        for store in ["build.sqlite", "build.sqlite-wal", "build.sqlite-shm"] { try? FileManager.default.removeItem(atPath: options.cacheRoot + "/" + store) }
        let report = Pipeline.build(options)
        #expect(report.succeeded)
        #expect(!report.notes.contains { $0.contains("missing from search") }, "\(report.notes)")
        #expect(Self.files(in: dir.path + "/public/pagefind/area-1011") == listed)
        // Taking a folder out renames it away first: no folder of a key is left without its list.
        SearchStage.remove(key, in: options.cacheRoot + "/search")
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(!Self.cachedIndexes(options).contains { $0.hasSuffix(key) })
    }

    @Test func withoutPagefindTheBuildSaysSearchIsOff() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let options = BuildOptions.test(content: Repo.content, output: dir.path + "/public", suite: "search")
        let report = Pipeline.build(options)
        #expect(report.succeeded)
        #expect(report.notes.contains { $0.hasPrefix("search is off: Pagefind is not installed") })
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/public/search"))
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/public/pagefind"))
        let home = try String(contentsOfFile: dir.path + "/public/index.html", encoding: .utf8)
        #expect(!home.contains("site-search"))
    }

    @Test func searchFalseInSiteYamlTurnsItOff() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try FileManager.default.copyItem(atPath: Repo.content, toPath: dir.path + "/content")
        let site = dir.path + "/content/site.yaml"
        try (String(contentsOfFile: site, encoding: .utf8) + "search: false\n").write(toFile: site, atomically: true, encoding: .utf8)
        let report = Pipeline.build(try Self.options(output: dir.path + "/public", content: dir.path + "/content"))
        #expect(report.succeeded)
        #expect(!report.notes.contains { $0.hasPrefix("search is off") }, "turned off on purpose: nothing to say")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/public/pagefind"))
    }
}
