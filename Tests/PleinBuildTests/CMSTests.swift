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

    /// What GitHub hides is not read: an answer or a photo inside an HTML comment (which the
    /// maintainer never sees in the issue) is left out; a comment shown as code is kept.
    @Test func anIssueIsReadAsGitHubShowsIt() throws {
        let body = """
            <!--
            ### Area

            hidden-area
            -->
            ### Area

            bs6<!-- ### Area -->

            ### What happened

            The lamp is out. <!-- ![x](https://github.com/user-attachments/assets/9999) -->
            ```
            <!-- shown as code -->
            ```
            <!-- an unclosed comment hides the rest
            ### Photos

            ![y](https://github.com/user-attachments/assets/8888)
            """
        let sections = Scaffold.IssuePost.sections(of: Scaffold.IssuePost.visible(body))
        #expect(sections.map(\.label) == ["Area", "What happened"])
        #expect(sections[0].value == "bs6")
        #expect(sections[1].value == "The lamp is out. \n```\n<!-- shown as code -->\n```")
        #expect(try Scaffold.IssuePost.attachments(in: sections[1].value, number: 1).isEmpty)
        // An image GitHub does not show: in another tag's attribute, in code; one it shows, whatever its alt holds.
        let photos = try Scaffold.IssuePost.attachments(in: """
            <a title='<img src="https://github.com/user-attachments/assets/2222">'>see</a> `![c](https://github.com/user-attachments/assets/4444)`
            <img alt='<img src="https://github.com/user-attachments/assets/5555">' src="https://github.com/user-attachments/assets/3333">
            """, number: 1)
        #expect(photos.map(\.url) == ["https://github.com/user-attachments/assets/3333"])
        // A label inside a fenced code block is code, not a field.
        let fenced = Scaffold.IssuePost.sections(of: "### Area\n\nbs6\n\n```\n### Area\nevil\n```\n\n### Title\n\nLamp")
        #expect(fenced.map(\.label) == ["Area", "Title"] && fenced[0].value == "bs6\n\n```\n### Area\nevil\n```")
    }

    /// "Where" as residents answer it: a map app's shared link (the pin before the map's
    /// centre), a place of the site or a street near one, an area with a centre; a short link or
    /// an unknown place is said, with what the site knows.
    @Test func aReportsWhereIsReadAsResidentsGiveIt() {
        let link = Scaffold.IssueAnswers.mapLink
        func near(_ c: Coordinate?, _ lat: Double, _ lon: Double) -> Bool { c.map { abs($0.lat - lat) < 1e-9 && abs($0.lon - lon) < 1e-9 } ?? false }
        #expect(near(link("https://www.google.com/maps/place/Cotham+Hill/@51.4641,-2.6012,17z/data=!3m1!4b1!4m6!3m5!1s0x0:0x0!8m2!3d51.4643!4d-2.6019"), 51.4643, -2.6019))
        #expect(near(link("https://www.google.com/maps/@51.4641,-2.6012,17z"), 51.4641, -2.6012))
        #expect(near(link("https://www.google.com/maps/search/?api=1&query=51.46%2C-2.60"), 51.46, -2.60))
        #expect(near(link("https://maps.google.com/?q=51.4641,-2.6012"), 51.4641, -2.6012))
        #expect(near(link("https://maps.apple.com/?ll=51.4641,-2.6012&q=Dropped%20Pin"), 51.4641, -2.6012))
        #expect(near(link("https://www.openstreetmap.org/#map=18/51.46410/-2.60120"), 51.4641, -2.6012))
        #expect(near(link("https://www.openstreetmap.org/?mlat=51.4642&mlon=-2.6013#map=18/51.46410/-2.60120"), 51.4642, -2.6013))
        #expect(near(link("https://www.bing.com/maps?cp=51.4641~-2.6012&lvl=17"), 51.4641, -2.6012))
        #expect(link("https://www.google.com/maps/place/Cotham+Hill") == nil)

        var content = Content(site: SiteConfig(title: "Cotham", baseURL: "https://cotham.example/"))
        content.places = [Place(name: "Cotham Hill", coordinate: Coordinate(lat: 51.4643, lon: -2.6019), postcode: nil, span: .fileStart),
                          Place(name: "Elm Road", coordinate: Coordinate(lat: 51.47, lon: -2.59), postcode: "BS6", span: .fileStart)]
        content.areas = [Area(id: "bs7", file: nil, name: "Bishopston", center: Coordinate(lat: 51.48, lon: -2.59), boundary: [])]
        let position = { Scaffold.IssueAnswers.position($0, content: content) }
        #expect(position("cotham hill") == .at(Coordinate(lat: 51.4643, lon: -2.6019), place: "Cotham Hill"))
        #expect(position("outside 12 Elm Road, BS6 (the lamp post)") == .at(Coordinate(lat: 51.47, lon: -2.59), place: "Elm Road"))
        #expect(position("Bishopston") == .at(Coordinate(lat: 51.48, lon: -2.59), place: "Bishopston"))
        #expect(position("51.4641, -2.6012") == .at(Coordinate(lat: 51.4641, lon: -2.6012), place: nil))
        guard case .unknown(let short) = position("https://maps.app.goo.gl/abc"), short.contains("short link"),
              case .unknown(let typo) = position("Cotam Hill"), typo.contains("did you mean 'Cotham Hill'"),
              case .unknown(let none) = position("behind the shops"), none.contains("'Cotham Hill', 'Elm Road'"), none.contains("51.4643, -2.6019") else {
            Issue.record("a short link, a typo and an unknown place are said with what the site knows")
            return
        }
        #expect(Scaffold.IssueAnswers.record("Bishopston (bs7)", among: [("bs7", "Bishopston")]) == "bs7")
        #expect(Scaffold.IssueAnswers.record("bishopston", among: [("bs7", "Bishopston")]) == "bs7")
        #expect(Scaffold.IssueAnswers.record("/reports/bs7/", among: [("bs7", "Bishopston")]) == "bs7")
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
