import Foundation
import PleinCore
import PleinText
@testable import PleinBuild
@testable import PleinScaffold
import Testing

/// The CMS at /admin/ and the issue forms; Tests/Output/cms_check.py checks the output whole.
@Suite struct CMSTests {
    @Test func repositoryAddressesNameTheirForge() {
        let gitlab = RepositoryAddress("https://gitlab.com/club/sub/site.git")
        #expect(gitlab == RepositoryAddress("https://gitlab.com/club/sub/site"))
        #expect(gitlab?.path == "club/sub/site" && gitlab?.origin == "https://gitlab.com")
        #expect(RepositoryAddress("https://github.com/club") == nil, "an owner without a repository is no repository")
        #expect(RepositoryAddress("git@github.com:club/site.git") == nil)
        #expect(CMSSettings.Forge.of(repository: "https://codeberg.org/club/site") == .forgejo)
        #expect(CMSSettings.Forge.of(repository: "https://gitlab.example.org/club/site") == .gitlab)
        #expect(CMSSettings.Forge.of(repository: "https://git.example.org/club/site") == nil)
        #expect(CMSSettings.isIntegrity("sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"))
        #expect(!CMSSettings.isIntegrity("sha1-abc") && !CMSSettings.isIntegrity("sha384-") && !CMSSettings.isIntegrity("sha384-a\"b"))
        // Editorial workflow only where the CMSs have it.
        #expect(CMSSettings(forge: .gitlab).editorialWorkflow && !CMSSettings(forge: .forgejo).editorialWorkflow)
        #expect(!CMSSettings(forge: .github, review: false).editorialWorkflow)
    }

    @Test func yamlTextKeepsEveryValueWhatItIs() {
        let value: JSON = .object([
            ("name", .string("a: b # c\n\"d\"")), ("on", .string("yes")), ("empty", .array([])), ("none", .object([])),
            ("list", .array([.object([("x", .int(1)), ("y", .object([("z", .bool(false))]))]), .string("-"), .number(0.5)])),
        ])
        #expect(YAMLText.document(value) == """
            name: "a: b # c\\n\\"d\\""
            on: "yes"
            empty: []
            none: {}
            list:
              - x: 1
                y:
                  z: false
              - "-"
              - 0.5

            """)
    }

    @Test func issueBodiesAreReadAsGitHubWritesForms() throws {
        let sections = Scaffold.IssuePost.sections(of: "### Your member id\r\n\r\nbram\r\n\r\n### Place\n\n_No response_\n\n### Text\n\nline 1\n\n### not a heading\nline 2\n")
        #expect(sections.map(\.label) == ["Your member id", "Place", "Text", "not a heading"])
        #expect(sections.map(\.value) == ["bram", "", "line 1", "line 2"])
        let photos = try Scaffold.IssuePost.attachments(in: """
            ![a](https://github.com/user-attachments/assets/1111) <img alt="b" src="https://github.com/user-attachments/assets/2222">
            ![a again](https://github.com/user-attachments/assets/1111)
            """, number: 3)
        #expect(photos.map(\.name) == ["attachment-1", "attachment-2"])
        #expect(photos.map(\.url) == ["https://github.com/user-attachments/assets/1111", "https://github.com/user-attachments/assets/2222"])
        #expect(throws: Scaffold.Failure.self) { try Scaffold.IssuePost.attachments(in: "![x](http://127.0.0.1/secret)", number: 3) }
        #expect(throws: Scaffold.Failure.self) { try Scaffold.IssuePost.attachments(in: "![x](https://github.com/user-attachments/assets/1$(id))", number: 3) }
        #expect(Scaffold.coordinate("geo:52.36,4.94")! == (52.36, 4.94) && Scaffold.coordinate("52.36") == nil && Scaffold.coordinate("95, 4") == nil)
        #expect(Scaffold.reportID("https://x.example/reports/1094/2026-10-02-fiets/#reply-2") == "1094/2026-10-02-fiets")
        #expect(Scaffold.isoTime("2026-11-21 14:30") == "2026-11-21T14:30" && Scaffold.isoTime("2026-11-21") == "2026-11-21")
    }

    /// The workflow sends its token with each download: only GitHub's attachment addresses, as
    /// they are, pass; anything that would lead it elsewhere on github.com is refused.
    @Test func attachmentAddressesAreNormalisedBeforeTheTokenGoesWithThem() {
        let normalised = Scaffold.Attachment.normalised
        #expect(normalised("https://github.com/user-attachments/assets/3f1e2c44-6a1b") == "https://github.com/user-attachments/assets/3f1e2c44-6a1b")
        #expect(normalised("HTTPS://GitHub.com/user-attachments/assets/abc") == "https://github.com/user-attachments/assets/abc")
        #expect(normalised("https://github.com/user-attachments/files/17/notes.pdf") == "https://github.com/user-attachments/files/17/notes.pdf")
        #expect(normalised("https://private-user-images.githubusercontent.com/1/2-a.png?jwt=eyJ.a-b_c") != nil)
        for hostile in [
            "https://github.com/user-attachments/assets/../../club/site/settings",
            "https://github.com/user-attachments/assets/%2e%2e/%2e%2e/club/site",
            "https://github.com/user-attachments/assets/./x", "https://github.com/user-attachments/assets/a/b",
            "https://github.com/user-attachments/assets/a?redirect=https://evil.example",
            "https://github.com/user-attachments/assets/a#x", "https://token@github.com/user-attachments/assets/a",
            "https://github.com:8443/user-attachments/assets/a", "https://github.com.evil.example/user-attachments/assets/a",
            "http://github.com/user-attachments/assets/a", "https://github.com/club/site/settings",
            "https://github.com/user-attachments\\assets/a", "https://user-images.githubusercontent.com/1/a.png?x=1",
        ] {
            #expect(normalised(hostile) == nil, "\(hostile)")
        }
    }

    @Test func placementFieldsMustNameTheFilesFolder() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        try dir.write([
            "site.yaml": "title: T\nbase_url: https://example.org/\n",
            "users/anna.md": "---\nname: Anna\n---\n",
            "groups/club/index.md": "---\nname: Club\nmembers: [anna]\n---\n",
            "groups/club/events/duik.md": "---\ntitle: Duik\nstarts: 2027-01-01\ngroup: klub\n---\n",
            "reports/1094/2026-10-02-fiets.md": "---\ntitle: Fiets\ncategory: message\nat: 2026-10-02T09:00:00+02:00\nauthor: anna\n"
                + "location: {lat: 52.36, lon: 4.94}\narea: '1094'\n---\n",
            // A reply beside a report that is one file: its folder holds only replies.
            "reports/1094/2026-10-02-fiets/replies/20261003T1000-anna.md": "---\nauthor: anna\nat: 2026-10-03T10:00:00+02:00\narea: '1011'\nreport: 2026-10-02-fiets\n---\nJa.\n",
        ], under: "content")
        let check = Pipeline.check(content: dir.path + "/content")
        let misplaced = check.diagnostics.filter { if case .misplaced = $0.problem { return true } else { return false } }
        let files = misplaced.map { $0.file.replacingOccurrences(of: dir.path + "/content/", with: "") }.sorted()
        #expect(files == ["groups/club/events/duik.md", "reports/1094/2026-10-02-fiets/replies/20261003T1000-anna.md"])
        #expect(misplaced.allSatisfy { $0.span.line > 1 && $0.severity == .error })
        #expect(check.content.reports.first?.replies.count == 1, "the reply joins the report that is one file")
        #expect(!check.diagnostics.contains { $0.message.contains("index.md") })
    }
}
