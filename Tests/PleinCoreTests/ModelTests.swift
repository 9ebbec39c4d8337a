@testable import PleinCore
@testable import PleinLoad
@testable import PleinModel
import PleinTestSupport
import Testing

@Suite struct ModelTests {
    func model(_ fixture: String) throws -> SiteModel {
        let loaded = ContentLoader.load(try Txtar.fixture(fixture).fs)
        return ModelBuilder.build(loaded.content)
    }

    @Test func joinsRecords() throws {
        let m = try model("clean")
        let anna = try #require(m.members["anna-de-vries"])
        #expect(anna.groups == ["duikclub"])
        #expect(anna.completedGoals == [GoalKey(group: "duikclub", goal: "dertig-meter")])
        #expect(anna.replies == [ReplyRef(report: "1094/2026-10-02-fiets-gestolen", index: 0)])
        #expect(anna.friends == ["bram"])
        #expect(m.members["bram"]?.reports == ["1094/2026-10-02-fiets-gestolen"])
        // The group names bram by e-mail; the model holds ids only.
        #expect(m.groups["duikclub"]?.members == ["anna-de-vries", "bram"])
        #expect(m.reports["1094/2026-10-02-fiets-gestolen"]?.followers == ["anna-de-vries"])
        #expect(m.areas.first?.reports == ["1094/2026-10-02-fiets-gestolen"])
        #expect(m.locations.first?.present == ["anna-de-vries"])
    }

    @Test func aLivePhotosVideoGetsAPageBesideItsPhoto() {
        let slugs = PhotoName.slugs(["IMG_0042.HEIC", "IMG_0042.MOV", "Zee film.mp4"])
        #expect(slugs == ["IMG_0042.HEIC": "img-0042", "IMG_0042.MOV": "img-0042-video", "Zee film.mp4": "zee-film"])
    }

    @Test func homesAreCoarsened() throws {
        let m = try model("clean")
        let home = try #require(m.members["bram"]?.home)
        #expect(home != Coordinate(lat: 52.36, lon: 4.92))
        #expect(distanceKm(home, Coordinate(lat: 52.36, lon: 4.92)) < 1)
        // Everyone within the same 1 km cell gets the same point.
        #expect(Privacy.coarsen(Coordinate(lat: 52.3601, lon: 4.9201), km: 1) == Privacy.coarsen(Coordinate(lat: 52.3602, lon: 4.9203), km: 1))
    }

    @Test func leaderboardUsesCompetitionRanking() {
        let group = GroupModel(
            id: "g", file: "g", name: "G", visibility: .public, members: ["a", "b", "c", "d"], createdBy: nil, body: .empty)
        var g = group
        func goal(_ id: String, _ points: Int, _ by: String) -> GoalModel {
            GoalModel(group: "g", id: id, file: id, title: id, points: points, addedBy: nil, added: nil,
                      completedBy: by, completedAt: Moment(seconds: 0), body: .empty)
        }
        g.completedGoals = [goal("1", 10, "c"), goal("2", 5, "b"), goal("3", 5, "d"), goal("4", 20, "c")]
        let standings = Leaderboard.standings(g, byName: <)
        #expect(standings.map(\.member) == ["c", "b", "d", "a"])
        #expect(standings.map(\.rank) == [1, 2, 2, 4])
        #expect(standings.map(\.points) == [30, 5, 5, 0])
        #expect(standings.map(\.goals) == [2, 1, 1, 0])
    }
}
