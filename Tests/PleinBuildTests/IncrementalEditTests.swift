import Foundation
import PleinCore
import PleinLoad
import PleinModel
import PleinRender
@testable import PleinBuild
import PleinImages
import Synchronization
import Testing

extension IncrementalTests {
    /// An edit of records' files that leaves the rest of the site as it was is loaded, checked
    /// and modelled record by record (`ContentChange.records`, `ModelChange`); an edit that
    /// reaches further in the model (a report's time or author) is modelled whole. Either way, the site and its problems are those of a full build, through errors
    /// and their fixes.
    @Test func recordEditsAreRedoneRecordByRecord() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var state = SiteState(site.options, tracking: true)
        #expect(state.succeeded)
        let bundle = "reports/1094/2026-10-10-auto-inbraken-celebesstraat"
        let single = "reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md"
        let reply = bundle + "/replies/20261010T1210-marieke-hendriks.md"
        // The facts changed in place are those made of the whole model.
        func expectWholeFacts(_ label: String) { expectFactsOfTheWholeModel(state, site, label) }
        func update(_ paths: Set<String>, _ label: String, loaded: ContentChange, modelled: ModelChange?) {
            let update = state.update(content: paths, templates: [])
            #expect(state.lastChange.loaded == loaded, "\(label): loaded \(state.lastChange.loaded)")
            #expect(state.lastChange.modelled == modelled, "\(label): modelled \(String(describing: state.lastChange.modelled))")
            #expect(update.rendered < state.outputCount / 4 || modelled == nil, "\(label): \(update.rendered) outputs rendered")
            expectSameAsFullBuild(state, site, label)
            expectWholeFacts(label)
        }
        // A deleted report that a member follows: the member's file says so, as a full check does.
        let follower = "users/anna-de-vries.md"
        let followed = "reports/1094/2026-11-03-kapotte-lantaarn.md"
        try site.write(followed, "---\ntitle: Kapotte lantaarn\ncategory: complaint\nat: 2026-11-03T21:00:00+01:00\nauthor: bram-van-dijk\n"
                       + "location: {lat: 52.3630, lon: 4.9370}\n---\nDonker.\n")
        _ = state.update(content: [followed], templates: [])
        try site.edit(follower) { $0.replacingOccurrences(of: "follows:\n", with: "follows:\n  - 1094/2026-11-03-kapotte-lantaarn\n") }
        update([follower], "a member follows a new report", loaded: .records([follower]), modelled: nil)
        unlink(site.content + "/" + followed)
        _ = state.update(content: [followed], templates: [])
        #expect(state.lastChange.loaded == .records([followed]) && !state.succeeded)
        #expect(state.diagnostics == SiteState(site.options, tracking: false).diagnostics, "a followed report deleted: the problems of a full check")
        try site.edit(follower) { $0.replacingOccurrences(of: "  - 1094/2026-11-03-kapotte-lantaarn\n", with: "") }
        _ = state.update(content: [follower], templates: [])
        #expect(state.succeeded)
        expectSameAsFullBuild(state, site, "the follow taken back")
        func pieces(reports: Set<String> = [], members: Set<String> = [], groups: Set<String> = [], threads: Set<String> = [],
                    pages: Bool = false) -> ModelChange {
            var change = ModelChange()
            (change.reports, change.members, change.groups, change.threads, change.pages) = (reports, members, groups, threads, pages)
            return change
        }
        let ids: Set = ["1094/2026-10-10-auto-inbraken-celebesstraat"]

        try site.edit(bundle + "/index.md") { $0 + "\nEen nieuwe alinea aan het eind.\n" }
        update([bundle + "/index.md"], "a report's body", loaded: .records([bundle + "/index.md"]), modelled: pieces(reports: ids))
        try site.edit(reply) { $0.replacingOccurrences(of: "inloopuur", with: "spreekuur") }
        update([reply], "a reply's body", loaded: .records([reply]), modelled: pieces(reports: ids))
        try site.edit(reply) { $0.replacingOccurrences(of: "at: 2026-10-10T12:10", with: "at: 2026-10-12T12:10") }
        update([reply], "a reply's time, now the last of three", loaded: .records([reply]), modelled: nil)
        try site.edit(single) { $0.replacingOccurrences(of: "title: ", with: "title: Weer over ") }
        try site.edit(bundle + "/index.md") { $0.replacingOccurrences(of: "category: suspicious", with: "category: attention") }
        update([single, bundle + "/index.md"], "two reports at once", loaded: .records([single, bundle + "/index.md"]),
               modelled: pieces(reports: ids.union(["1094/2026-09-03-scooters-op-de-stoep-javastraat"])))
        try site.edit(bundle + "/index.md") { $0.replacingOccurrences(of: "author: noah-el-amrani", with: "author: anna-de-vries") }
        update([bundle + "/index.md"], "a report's author", loaded: .records([bundle + "/index.md"]), modelled: nil)
        try site.edit(bundle + "/index.md") { $0 + "\nMail bram.vandijk@example.com als je iets weet.\n" }
        update([bundle + "/index.md"], "a member's address in a report (a warning of its own)", loaded: .records([bundle + "/index.md"]),
               modelled: pieces(reports: ids))
        #expect(state.diagnostics.contains { $0.file.hasSuffix(bundle + "/index.md") })

        // An unknown author is an error: the last good site stays. A body edit of another report
        // meanwhile, then the fix: the model made after it has both.
        try site.edit(single) { $0.replacingOccurrences(of: "author: ", with: "author: niemand-") }
        _ = state.update(content: [single], templates: [])
        #expect(!state.succeeded)
        try site.edit(reply) { $0 + "\nNog een regel.\n" }
        _ = state.update(content: [reply], templates: [])
        #expect(state.lastChange.loaded == .records([reply]))
        try site.edit(single) { $0.replacingOccurrences(of: "author: niemand-", with: "author: ") }
        update([single], "an error, an edit elsewhere, the fix", loaded: .records([single]),
               modelled: pieces(reports: ids.union(["1094/2026-09-03-scooters-op-de-stoep-javastraat"])))

        // Other records: a member's bio and a report at once, a group's text, a goal's points
        // (the group's leaderboard), a page, a message.
        let member = "users/bram-van-dijk.md"
        try site.edit(member) { $0 + "\nDuikt ook in de winter.\n" }
        try site.edit(single) { $0 + "\nEn nog iets.\n" }
        update([member, single], "a member's bio and a report", loaded: .records([member, single]),
               modelled: pieces(reports: ["1094/2026-09-03-scooters-op-de-stoep-javastraat"], members: ["bram-van-dijk"]))
        let group = "groups/duikclub-de-zeehond"
        try site.edit(group + "/index.md") { $0 + "\nNieuwe leden welkom.\n" }
        update([group + "/index.md"], "a group's text", loaded: .records([group + "/index.md"]), modelled: pieces(groups: ["duikclub-de-zeehond"]))
        let goal = group + "/goals/duik-bij-de-zeelandbrug.md"
        try site.edit(goal) { $0.replacingOccurrences(of: "points: 20", with: "points: 45") }
        update([goal], "a completed goal's points", loaded: .records([goal]), modelled: pieces(groups: ["duikclub-de-zeehond"]))
        let page = "pages/over-buurtboek.md"
        try site.edit(page) { $0 + "\nEen alinea erbij.\n" }
        update([page], "a page", loaded: .records([page]), modelled: pieces(pages: true))
        let message = "threads/buddyduik-vinkeveen/20260921T0812-zoe-jansen.md"
        try site.edit(message) { $0 + "\nTot zaterdag!\n" }
        update([message], "a message", loaded: .records([message]), modelled: pieces(threads: ["buddyduik-vinkeveen"]))
        // Saved as `sed -i` and many editors save: a file written beside it and renamed over it,
        // which the watcher names too, though it is gone when the update looks.
        try site.edit(member) { $0 + "\nEn in de zomer.\n" }
        update([member, "users/sedX4fQ2a", "users/bram-van-dijk.md___jb_tmp___"], "a member's bio saved through a file renamed over it",
               loaded: .records([member]), modelled: pieces(members: ["bram-van-dijk"]))

        // A member's name: their new place in every list of members by name (the site's, their
        // groups' and leaderboards, their friends', who is at a study place), record by record.
        for (file, id, name) in [(member, "bram-van-dijk", "Dr. "), ("users/emma-kok.md", "emma-kok", "Zuster ")] {
            try site.edit(file) { $0.replacingOccurrences(of: "name: ", with: "name: " + name) }
            let update = state.update(content: [file], templates: [])
            let label = "a member's name (\(id))"
            #expect(state.lastChange.loaded == .records([file]), "\(label)")
            #expect(state.lastChange.modelled?.memberOrder == true && state.lastChange.modelled?.members.contains(id) == true, "\(label)")
            #expect(update.rendered < state.outputCount / 4, "\(label): \(update.rendered) outputs rendered")
            expectSameAsFullBuild(state, site, label)
            expectWholeFacts(label)
        }
        // New reports and replies take their places in the lists in place.
        let added = bundle + "/replies/20261012T0800-bram-van-dijk.md"
        try site.write(added, "---\nauthor: bram-van-dijk\nat: 2026-10-12T08:00:00+02:00\n---\nNieuw.\n")
        _ = state.update(content: [added], templates: [])
        #expect(state.lastChange.loaded == .records([added], added: [added]) && state.lastChange.modelled?.reports == ids)
        expectSameAsFullBuild(state, site, "a new reply")
        expectWholeFacts("a new reply")
        let newReport = "reports/1094/2026-11-02-losse-stoeptegel.md"
        try site.write(newReport, "---\ntitle: Losse stoeptegel\ncategory: complaint\nat: 2026-11-02T09:00:00+01:00\nauthor: bram-van-dijk\n"
                       + "location: {lat: 52.3630, lon: 4.9370}\n---\nStruikelgevaar.\n")
        _ = state.update(content: [newReport], templates: [])
        #expect(state.lastChange.loaded == .records([newReport], added: [newReport]))
        #expect(state.lastChange.modelled?.reportOrder == true && state.lastChange.modelled?.areas == ["1094"])
        expectSameAsFullBuild(state, site, "a new report")
        expectWholeFacts("a new report")
        // And deleted again, each on its own.
        for (gone, label) in [(added, "a reply deleted"), (newReport, "a report deleted")] {
            unlink(site.content + "/" + gone)
            _ = state.update(content: [gone], templates: [])
            #expect(state.lastChange.loaded == .records([gone]) && state.lastChange.modelled != nil, "\(label)")
            expectSameAsFullBuild(state, site, label)
            expectWholeFacts(label)
        }
        try site.edit(single) { $0.replacingOccurrences(of: "at: ", with: "at: x") }
        _ = state.update(content: [single], templates: [])
        #expect(state.lastChange.loaded == .everything && !state.succeeded)
        try site.edit(single) { $0.replacingOccurrences(of: "at: x", with: "at: ") }
        update([single], "a broken date mended", loaded: .everything, modelled: nil)
    }

    /// A photo added to an album, replaced or deleted is an edit of the album's record: loaded,
    /// checked and modelled as that (with the photo's published form, `ModelChange.images`), its
    /// variants made, and the site and its problems those of a full build; an album's first photo
    /// and its last take its "no photos" warning away and back.
    @Test func albumPhotosAreTakenInRecordByRecord() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var state = SiteState(site.options, tracking: true)
        #expect(state.succeeded)
        let folder = "groups/duikclub-de-zeehond/albums/duikweekend-zeeland"
        let album = folder + "/index.md"
        let source = site.content + "/" + folder + "/kreeft-onder-steiger.jpg"
        func expectWholeFacts(_ label: String) { expectFactsOfTheWholeModel(state, site, label) }
        func update(_ photo: String, album: String, _ label: String) {
            let update = state.update(content: [photo], templates: [])
            #expect(state.lastChange.loaded == .records([photo, album]), "\(label): loaded \(state.lastChange.loaded)")
            #expect(state.lastChange.modelled?.images == [photo], "\(label): modelled \(String(describing: state.lastChange.modelled))")
            #expect(update.rendered < state.outputCount / 4, "\(label): \(update.rendered) outputs rendered")
            expectSameAsFullBuild(state, site, label)
            expectWholeFacts(label)
        }
        // A new photo (its name a slug another photo's page has not), then another photo's bytes
        // in its place, then deleted.
        let added = folder + "/kreeft-nummer-twee.jpg"
        try FileManager.default.copyItem(atPath: source, toPath: site.content + "/" + added)
        update(added, album: album, "a photo added")
        #expect(state.files.dictionary.keys.contains { $0.contains("kreeft-nummer-twee") }, "the new photo's page")
        unlink(site.content + "/" + added)
        try FileManager.default.copyItem(atPath: site.content + "/" + folder + "/zeenaald-grevelingen.jpg", toPath: site.content + "/" + added)
        update(added, album: album, "a photo replaced")
        unlink(site.content + "/" + added)
        update(added, album: album, "a photo deleted")
        #expect(!state.files.dictionary.keys.contains { $0.contains("kreeft-nummer-twee") }, "the deleted photo's page is gone")

        // An album without photos gets its first, and loses it.
        let empty = "groups/duikclub-de-zeehond/albums/lege-map"
        try site.write(empty + "/index.md", "---\ntitle: Nog leeg\ndate: 2026-10-01\n---\nHier komen de foto's.\n")
        _ = state.update(content: [empty + "/index.md"], templates: [])
        #expect(state.diagnostics.contains { $0.file.hasSuffix(empty + "/index.md") && $0.message.contains("no photos") })
        let first = empty + "/eerste.jpg"
        let placed = site.content + "/" + folder + "/den-osse-instap.jpg"
        try FileManager.default.copyItem(atPath: placed, toPath: site.content + "/" + first)
        update(first, album: empty + "/index.md", "an album's first photo")
        #expect(!state.diagnostics.contains { $0.file.hasSuffix(empty + "/index.md") && $0.message.contains("no photos") })
        // Its map goes with its position: the photo replaced by a copy without one.
        let map = "groups/duikclub-de-zeehond/albums/lege-map/map.geojson"
        #expect(state.files.dictionary[map] != nil, "the album's map, with its first placed photo")
        let bare = site.dir.path + "/zonder-positie.jpg"
        #expect((try? ImageIO.write(placed, to: bare, width: 0, square: false, format: .jpeg, quality: 80).get()) != nil)
        unlink(site.content + "/" + first)
        try FileManager.default.moveItem(atPath: bare, toPath: site.content + "/" + first)
        update(first, album: empty + "/index.md", "an album's photo replaced by one without a position")
        #expect(state.files.dictionary[map] == nil, "the album's map goes with its last placed photo")
        unlink(site.content + "/" + first)
        update(first, album: empty + "/index.md", "an album's last photo deleted")
        #expect(state.diagnostics.contains { $0.file.hasSuffix(empty + "/index.md") && $0.message.contains("no photos") })

        // A file that is not the photo its name says goes the whole way, with its problem.
        let fake = folder + "/geen-foto.jpg"
        try site.write(fake, "geen jpeg")
        _ = state.update(content: [fake], templates: [])
        #expect(state.lastChange.loaded == .everything)
        #expect(state.diagnostics == SiteState(site.options, tracking: false).diagnostics, "a photo that is not one: the problems of a full check")
    }

    @Test func aBrokenEditKeepsTheSiteAndTheFixRestoresIt() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var state = SiteState(site.options, tracking: true)
        let before = flatten(state.files)
        let path = "users/bram-van-dijk.md"
        let original = try String(contentsOfFile: site.content + "/" + path, encoding: .utf8)
        try site.write(path, "---\nname: [Bram\n---\n")
        _ = state.update(content: [path], templates: [])
        #expect(!state.succeeded)
        #expect(state.diagnostics.contains { $0.file.hasSuffix(path) && $0.severity == .error })
        #expect(flatten(state.files) == before, "the last good site is still served")
        try site.write(path, original)
        _ = state.update(content: [path], templates: [])
        #expect(state.succeeded)
        expectSameAsFullBuild(state, site, "break and fix a member")
    }

    /// `plein serve` answers attachments from checked copies in the cache: a file of the content
    /// that turns into a link to something outside after the build is never read.
    @Test func attachmentsAreServedFromCheckedCopies() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        let bundle = "reports/1094/2026-10-10-auto-inbraken-celebesstraat"
        try site.write(bundle + "/plan.txt", "the plan\n")
        var state = SiteState(site.options, tracking: true)
        #expect(state.succeeded)
        func served(_ path: String) -> String? {
            guard case .disk(let copy)? = state.files[path] else { return nil }
            #expect(copy.hasPrefix(site.options.cacheRoot + "/"), "\(copy) is plein's own copy")
            return try? String(contentsOfFile: copy, encoding: .utf8)
        }
        #expect(served(bundle + "/plan.txt") == "the plan\n")

        unlink(site.content + "/" + bundle + "/plan.txt")
        #expect(symlink("/etc/passwd", site.content + "/" + bundle + "/plan.txt") == 0)
        _ = state.update(content: [bundle + "/plan.txt"], templates: [])
        #expect(!state.succeeded, "a link out of the content is refused")
        #expect(served(bundle + "/plan.txt") == "the plan\n", "the last good build's copy is served")

        // While the content is broken, a new link is not served at all.
        #expect(symlink("/etc/hostname", site.content + "/" + bundle + "/other.txt") == 0)
        _ = state.update(content: [bundle + "/other.txt"], templates: [])
        #expect(state.files[bundle + "/other.txt"] == nil)

        unlink(site.content + "/" + bundle + "/plan.txt")
        unlink(site.content + "/" + bundle + "/other.txt")
        try site.write(bundle + "/plan.txt", "the new plan\n")
        _ = state.update(content: [bundle + "/plan.txt", bundle + "/other.txt"], templates: [])
        #expect(state.succeeded)
        #expect(served(bundle + "/plan.txt") == "the new plan\n")
    }

    /// `plein serve` takes a new member in record by record: their page is rendered first, the
    /// lists of members again; a text that already wrote their address warns as a full check does.
    /// A new page (rendered first) and a group's new goal too.
    @Test func aNewMemberIsTakenInRecordByRecord() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var state = SiteState(site.options, tracking: true)
        #expect(state.succeeded)
        let member = "users/mees-nieuw.md"
        try site.write(member, "---\nname: Mees Nieuw\nemail: mees@example.org\njoined: 2026-11-02\nfriends: [anna-de-vries]\n---\nNieuw hier.\n")
        let handed = Mutex<[[String]]>([])
        _ = state.update(content: [member], templates: [], first: { _, paths in handed.withLock { $0.append(paths) } })
        let pages = handed.withLock { $0.first ?? [] }
        #expect(state.lastChange.loaded == .records([member], added: [member]) && state.lastChange.modelled?.members == ["mees-nieuw"],
                "\(state.lastChange.loaded), \(String(describing: state.lastChange.modelled))")
        #expect(pages.contains("users/mees-nieuw/index.html"), "the new member's page first: \(pages)")
        expectSameAsFullBuild(state, site, "a new member")

        let report = "reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md"
        try site.edit(report) { $0 + "\nMail Lot.Later@Example.org voor de sleutel.\n" }
        _ = state.update(content: [report], templates: [])
        let later = "users/lot-later.md"
        try site.write(later, "---\nname: Lot Later\nemail: lot.later@example.org\njoined: 2026-11-03\n---\nHallo.\n")
        _ = state.update(content: [later], templates: [])
        #expect(state.lastChange.loaded == .records([later], added: [later]))
        #expect(state.diagnostics.contains { $0.file.hasSuffix(report) && "\($0.problem)".contains("registeredAddressInText") })
        #expect(state.diagnostics == SiteState(site.options, tracking: false).diagnostics, "the problems of a full check")
        expectSameAsFullBuild(state, site, "a new member whose address a text holds")

        // A new page of the site's own, its page first; a group's new goal.
        let page = "pages/spelregels.md"
        try site.write(page, "---\ntitle: Spelregels\n---\nZo doen we het hier.\n")
        handed.withLock { $0 = [] }
        _ = state.update(content: [page], templates: [], first: { _, paths in handed.withLock { $0.append(paths) } })
        #expect(state.lastChange.loaded == .records([page], added: [page]) && state.lastChange.modelled != nil)
        #expect(handed.withLock { $0.first ?? [] }.contains("spelregels/index.html"))
        expectSameAsFullBuild(state, site, "a new page")
        let goal = "groups/duikclub-de-zeehond/goals/duik-in-de-oosterschelde.md"
        try site.write(goal, "---\ntitle: Duik in de Oosterschelde\npoints: 15\nadded: 2026-11-20\n---\nMet de club.\n")
        _ = state.update(content: [goal], templates: [])
        #expect(state.lastChange.loaded == .records([goal], added: [goal]) && state.lastChange.modelled?.groups == ["duikclub-de-zeehond"])
        expectSameAsFullBuild(state, site, "a new goal")
    }

    /// After the watcher lost events, a rescan finds every change by content.
    @Test func aRescanAfterLostEventsEqualsAFullBuild() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var state = SiteState(site.options, tracking: true)
        let report = "reports/1094/2026-10-25-omgevallen-boom-timorplein.md"
        try site.edit(report) { $0.replacingOccurrences(of: "title: Omgewaaide boom", with: "title: Omgevallen boom") }
        try site.write("users/zoe-nieuw.md", "---\nname: Zoë Nieuw\nemail: zoe@example.org\n---\nNieuw hier.\n")
        var update = state.rescan()
        #expect(update.changed.contains("reports/1094/2026-10-25-omgevallen-boom-timorplein/index.html"))
        #expect(update.rendered < state.outputCount / 2, "a rescan renders what changed, \(update.rendered) of \(state.outputCount)")
        expectSameAsFullBuild(state, site, "rescan after content edits")

        let template = site.templates + "/pages/member.mustache"
        let text = try String(contentsOfFile: template, encoding: .utf8)
        try (text + "\n").write(toFile: template, atomically: true, encoding: .utf8)
        update = state.rescan()
        #expect(update.changed.contains { $0.hasPrefix("users/") })
        #expect(!update.changed.contains("reports/index.html"), "only pages of the edited template change")
        expectSameAsFullBuild(state, site, "rescan after a template edit")
    }
}

extension IncrementalTests {
    /// `plein serve` renders the pages of the edited record first, then the pages open in
    /// browsers that the edit changes, each handed over (`first`) before the rest of what it
    /// changed; a page open that the edit does not change is not rendered. The site is then
    /// a full build's.
    @Test func theOpenPagesAnEditChangesAreRenderedBeforeTheRest() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var state = SiteState(site.options, tracking: true)
        #expect(state.succeeded)
        let report = "reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md"
        // The area's page lists the report's title; the members' list does not show it.
        let area = "reports/1094/index.html", members = "users/index.html"
        let handed = Mutex<[[String]]>([])
        try site.edit(report) { $0.replacingOccurrences(of: "title: ", with: "title: Weer ") }
        let update = state.update(content: [report], templates: [], first: { _, paths in handed.withLock { $0.append(paths) } },
                                  open: [area, members])
        let calls = handed.withLock { $0 }
        #expect(calls.count == 2, "\(calls)")
        #expect(calls.first?.contains("reports/1094/2026-09-03-scooters-op-de-stoep-javastraat/index.html") == true)
        #expect(calls.last == [area])
        #expect(update.first.contains(area) && !update.first.contains(members))
        #expect(update.changed.contains(area) && update.changed.count > update.first.count)
        expectSameAsFullBuild(state, site, "a report's title, with its area's page open")
    }

    /// An update that renders many outputs (a new title: every one) is served as it is made, an
    /// eighth at a time, each handed over (`first`) without reloading a page; the pages open
    /// are reloaded once, at its end, and the site is a full build's.
    @Test func manyOutputsAreServedAsTheyAreRendered() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var state = SiteState(site.options, tracking: true)
        #expect(state.succeeded)
        #expect(state.last.ids.count >= 2 * SiteState.handedOverAtLeast, "the site has too few outputs to hand over in parts")
        let handed = Mutex<[(count: Int, paths: [String])]>([])
        try site.edit("site.yaml") { $0.replacingOccurrences(of: "title: ", with: "title: Het ") }
        let update = state.update(content: ["site.yaml"], templates: [], first: { files, paths in handed.withLock { $0.append((files.count, paths)) } })
        let calls = handed.withLock { $0 }
        #expect(calls.count >= 1 && calls.count <= 7, "\(calls.count)")
        #expect(calls.allSatisfy { $0.paths.isEmpty }, "a part handed over reloads no page")
        #expect(update.first.isEmpty && update.rendered == state.last.ids.count)
        #expect(Set(update.changed).count == update.changed.count, "each output is said to have changed once")
        expectSameAsFullBuild(state, site, "a new title, served in parts")
    }

    /// The site's feed brought up to date from what `serve` kept of it (`MemoryFragments.keptBefore`)
    /// is the feed a full build makes, when its pages were rendered first (before the facts are
    /// known, so nothing is kept of them) as much as otherwise: a text of the newest report, a
    /// newer report, an older report made the newest.
    @Test func theSiteFeedServeBringsUpToDateIsTheFullBuilds() throws {
        let site = try Site()
        defer { site.dir.cleanup() }
        var state = SiteState(site.options, tracking: true)
        #expect(state.succeeded)
        let first: SiteState.FirstPages = { _, _ in }
        let newest = "reports/1094/2026-11-19-inloop-energiecoach.md"
        try site.edit(newest) { $0 + "\nKom gerust langs.\n" }
        _ = state.update(content: [newest], templates: [], first: first)
        expectSameAsFullBuild(state, site, "the newest report's text, its pages first")
        let added = "reports/1094/2026-11-20-lekkende-brandkraan.md"
        try site.write(added, "---\ntitle: Lekkende brandkraan\ncategory: attention\nat: 2026-11-20T08:30:00+01:00\nauthor: kees-brouwer\nlocation: {lat: 52.3635, lon: 4.9401}\n---\nDe brandkraan op de hoek lekt al een dag.\n")
        _ = state.update(content: [added], templates: [], first: first)
        expectSameAsFullBuild(state, site, "a newer report, its pages first")
        let older = "reports/1094/2026-09-03-scooters-op-de-stoep-javastraat.md"
        try site.edit(older) { $0.replacingOccurrences(of: "at: 2026-09-03T17:45:00+02:00", with: "at: 2026-11-21T17:45:00+01:00") }
        _ = state.update(content: [older], templates: [])
        expectSameAsFullBuild(state, site, "an older report made the newest")
        let feed = try #require(state.files["feed.xml"].flatMap { served -> String? in
            if case .bytes(let bytes) = served { return String(decoding: bytes, as: UTF8.self) } else { return nil }
        })
        #expect(feed.contains("Lekkende brandkraan") && feed.contains("Kom gerust langs."))
    }
}
