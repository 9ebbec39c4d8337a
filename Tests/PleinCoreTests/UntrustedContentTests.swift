@testable import PleinCore
@testable import PleinLoad
@testable import PleinCheck
import Foundation
import PleinTestSupport
import Testing

/// What a pull request can carry (issue 34): attachments are data, never pages; symbolic and
/// hard links are followed only by rule; text is cleaned the same way for every output.
@Suite struct UntrustedContentTests {
    static let report = "reports/1011/2026-09-09-fietswrakken"
    static let base: [String: String] = [
        "site.yaml": Txtar.defaultSite,
        "users/anna.md": "---\nname: Anna\nemail: anna@example.org\n---\nHallo.\n",
        "threads/buddy/thread.yaml": "participants: [anna]\nsubject: Geheim\n",
        report + "/index.md": "---\ntitle: Fietswrakken\ncategory: other\nat: 2026-09-09T10:00:00+02:00\nauthor: anna\n---\nVeel wrakken.\n",
    ]

    func load(_ files: [String: [UInt8]], symlinks: [String: String] = [:]) -> LoadResult {
        var all = Self.base.mapValues { Array($0.utf8) }
        all.merge(files) { _, new in new }
        return ContentLoader.load(.memory(all, symlinks: symlinks))
    }

    /// A content folder on disk, for what only a real file system has.
    struct Folder {
        let path = NSTemporaryDirectory() + "plein-untrusted-" + UUID().uuidString
        init(_ files: [String: String]) throws {
            for (relative, text) in files {
                let url = URL(fileURLWithPath: path + "/content/" + relative)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: false, encoding: .utf8)
            }
        }
        func cleanup() { try? FileManager.default.removeItem(atPath: path) }
    }

    func problems(_ result: LoadResult, _ name: String) -> [Diagnostic] {
        result.diagnostics.filter { $0.file == Self.report + "/" + name }
    }

    @Test func attachmentsAreDataNeverPages() throws {
        let result = load([
            Self.report + "/index.html": Array("<script>alert(1)</script>".utf8),
            Self.report + "/feed.xml": Array("FEED".utf8),
            Self.report + "/FEED.JSON": Array("{}".utf8),
            Self.report + "/page.html": Array("<script>alert(document.domain)</script>".utf8),
            Self.report + "/kaart.svg": Array("<svg onload='alert(1)'/>".utf8),
            Self.report + "/anna.md": Array(Self.base["users/anna.md"]!.utf8),
            Self.report + "/code.js": Array("alert(1)".utf8),
            Self.report + "/zonder-naam": Array("?".utf8),
            Self.report + "/nep.pdf": Array("<html><script>alert(1)</script>".utf8),
            Self.report + "/nep.mp3": Array("<html>".utf8),
            Self.report + "/plan.pdf": Array("%PDF-1.7\n".utf8),
            Self.report + "/notities.txt": Array("<b>gewoon tekst</b>".utf8),
            Self.report + "/geluid.ogg": Array("OggS\0\u{2}".utf8),
            Self.report + "/bijlagen/lijst.csv": Array("a,b\n".utf8),
        ])
        let report = try #require(result.content.reports.first)
        #expect(report.resources == ["bijlagen/lijst.csv", "geluid.ogg", "notities.txt", "plan.pdf"])
        for own in ["index.html", "feed.xml", "FEED.JSON"] {
            let found = problems(result, own)
            #expect(found.count == 1 && found[0].severity == .error, "\(own) takes the report's own place")
            #expect(found.first?.message.contains("\(Self.report)/\(own.lowercased())") ?? false, "the message names the output")
        }
        for unsafe in ["page.html", "kaart.svg", "anna.md", "code.js", "zonder-naam", "nep.pdf", "nep.mp3"] {
            let found = problems(result, unsafe)
            #expect(found.count == 1 && found[0].severity == .warning, "\(unsafe) is left out with a warning")
        }
        #expect(problems(result, "nep.pdf").first?.message.contains("does not hold a PDF document") ?? false)
    }

    @Test func theListInWordsIsTheList() {
        for ext in AttachmentType.extensions {
            #expect(AttachmentType.listed.contains("." + ext + ")") || AttachmentType.listed.contains("." + ext + ","), "\(ext) is named")
        }
        #expect(AttachmentType.of("x.PDF")?.mediaType == "application/pdf")
        #expect(AttachmentType.of("x.html") == nil && AttachmentType.of("x.svg") == nil && AttachmentType.of("x") == nil)
    }

    @Test func linksAreFollowedOnlyByRule() throws {
        let photo = "groups/club/albums/zee/vis.jpg"
        let result = load([
            Self.report + "/plan.pdf": Array("%PDF-1.7\n".utf8),
            photo: [0xFF, 0xD8, 0xFF, 0xE0],
            "groups/andere/albums/x/eigen.jpg": [0xFF, 0xD8, 0xFF, 0xE0],
        ], symlinks: [
            Self.report + "/a": ".",
            Self.report + "/thread": "../../../threads/buddy",
            Self.report + "/bericht.txt": "../../../threads/buddy/thread.yaml",
            Self.report + "/anna.txt": "../../../users/anna.md",
            Self.report + "/vis.jpg": "../../../" + photo,
            Self.report + "/een.txt": "twee.txt",
            Self.report + "/twee.txt": "een.txt",
            Self.report + "/kopie.pdf": "plan.pdf",
            "groups/andere/albums/x/vis.jpg": "../../../club/albums/zee/vis.jpg",
        ])
        for refused in ["a", "thread", "bericht.txt", "anna.txt", "vis.jpg", "een.txt", "twee.txt"] {
            let found = problems(result, refused)
            #expect(found.count == 1 && found[0].severity == .error, "\(refused) is refused with an error at the link")
        }
        #expect(result.diagnostics.contains { $0.file == "groups/andere/albums/x/vis.jpg" && $0.message.contains("another group") })
        #expect(try #require(result.content.reports.first).resources == ["kopie.pdf", "plan.pdf"])
    }

    /// Two links to their own folder made `check` walk for ever, in ever more memory.
    @Test func linksToFoldersEndTheWalk() throws {
        let dir = try Folder(Self.base)
        defer { dir.cleanup() }
        let folder = dir.path + "/content/" + Self.report
        #expect(symlink(".", folder + "/a") == 0 && symlink(".", folder + "/b") == 0)
        #expect(symlink("b", folder + "/c") == 0)
        var chain = "plan.pdf"
        try Data("%PDF-1.7\n".utf8).write(to: URL(fileURLWithPath: folder + "/plan.pdf"))
        for step in 1...10 {
            #expect(symlink(chain, folder + "/stap\(step).pdf") == 0)
            chain = "stap\(step).pdf"
        }
        let result = ContentLoader.load(.disk(dir.path + "/content"))
        for link in ["a", "b", "c"] {
            #expect(result.diagnostics.contains { $0.file == Self.report + "/" + link && $0.severity == .error }, "\(link) is refused")
        }
        let resources = try #require(result.content.reports.first).resources
        #expect(resources.contains("stap7.pdf") && !resources.contains("stap9.pdf"), "a chain of at most 8 links is followed")
        #expect(result.diagnostics.contains { $0.file == Self.report + "/stap9.pdf" && $0.message.contains("chain") })
    }

    /// A hard link shares the file with a name elsewhere: that name could be any file the user
    /// can read. One with every name inside the content is taken.
    @Test func hardLinksOutOfTheContentAreRefused() throws {
        let dir = try Folder(Self.base)
        defer { dir.cleanup() }
        let folder = dir.path + "/content/" + Self.report
        try Data("geheim".utf8).write(to: URL(fileURLWithPath: dir.path + "/secret.txt"))
        #expect(link(dir.path + "/secret.txt", folder + "/buiten.txt") == 0)
        try Data("binnen".utf8).write(to: URL(fileURLWithPath: folder + "/binnen.txt"))
        #expect(link(folder + "/binnen.txt", folder + "/ook-binnen.txt") == 0)
        let result = ContentLoader.load(.disk(dir.path + "/content"))
        #expect(result.diagnostics.contains { $0.file == Self.report + "/buiten.txt" && $0.severity == .error })
        #expect(try #require(result.content.reports.first).resources == ["binnen.txt", "ook-binnen.txt"])
    }

    @Test func aRegisteredAddressInATextIsWarnedAbout() throws {
        let result = load([Self.report + "/index.md": Array((Self.base[Self.report + "/index.md"]! + "Mail ANNA@example.org of info@club.nl.\n").utf8)])
        let found = Checker.check(result.content).filter { $0.file == Self.report + "/index.md" }
        #expect(found.count == 1)
        #expect(found.first?.severity == .warning && found.first?.message.contains("'anna'") == true)
        #expect(found.first?.span.line == 8 && found.first?.span.column == 6)
        // A member's file copied as a text attachment is published as it is: the same warning.
        let copied = load([Self.report + "/anna.txt": Array(Self.base["users/anna.md"]!.utf8)])
        let inCopy = Checker.check(copied.content).filter { $0.file == Self.report + "/anna.txt" }
        #expect(inCopy.count == 1 && inCopy.first?.span.line == 3, "\(inCopy)")
    }

    @Test func aMemberWhoLeftKeepsLeavingWithAnAvatarBesideTheirFile() throws {
        let result = load(["users/anna.md": Array("---\nname: Anna\nleft: 2026-10-01\n---\nHallo.\n".utf8), "users/anna.jpg": [0xFF, 0xD8, 0xFF]])
        let anna = try #require(result.content.members.first)
        #expect(anna.avatar?.value == "anna.jpg")
        #expect(anna.left != nil, "the avatar found beside the file does not undo 'left'")
    }

    @Test func aLinkWithASpaceIsFoundOnItsLineWhateverTheLineEndsWith() throws {
        // A line of 100,000 unclosed brackets before it: each bracket's closing one is found in
        // one pass over the line (looking for it from each bracket took minutes).
        let brackets = String(repeating: "[", count: 100_000) + "](x)\r\n"
        let text = Self.base[Self.report + "/index.md"]! + brackets + "Zie ![De lamp](lamp post.jpg) hier.\r\n"
        let result = load([Self.report + "/index.md": Array(text.utf8)])
        let found = Checker.check(result.content).filter { $0.file == Self.report + "/index.md" }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.span.line == 9 && found.first?.span.column == 5, "\(found)")
    }

    @Test func textIsCleanedTheSameForEveryOutput() throws {
        let result = load([
            "users/anna.md": Array("---\nname: \"Anna\\u202E evil\"\nemail: anna@example.org\n---\nIk \u{202E}duik\u{202C} graag.\n".utf8),
            Self.report + "/index.md": Array("---\ntitle: \"Fiets\\r\\nwrakken\\r\"\ncategory: other\nat: 2026-09-09T10:00:00+02:00\nauthor: anna\n---\nVeel.\n".utf8),
        ])
        let anna = try #require(result.content.members.first)
        #expect(anna.name == "Anna evil")
        #expect(anna.body.markdown == "Ik duik graag.\n", "no bidi controls in a bio: it is the meta description and the feeds' text too")
        #expect(try #require(result.content.reports.first).title == "Fiets wrakken")
    }
}
