import PleinText
import PleinMustache

/// What a member's page shows (see `MemberPage`).
struct MemberProfile: HandWrittenTemplate {
    struct Values: TemplateValues, Encodable {
        let member: MemberProfile
    }

    struct Diving: TemplateValues, Encodable {
        let certification: String?
        let years: String?
        let dives: String?
    }

    struct Home: TemplateValues, Encodable {
        let postcode: String?
        let near: String?
        let areaURL: String?
    }

    struct GroupLink: TemplateValues, Encodable {
        let name: String
        let url: String
        let members: String
    }

    struct Reply: TemplateValues, Encodable {
        let report: String
        let url: String
        let at: TimeValue
        let summary: String
    }

    struct Points: TemplateValues, Encodable {
        let group: String
        let url: String
        let points: String
        let goals: String
        let rank: String?
    }

    struct Study: TemplateValues, Encodable {
        let total: String
        let sessions: String
        let url: String
        let present: String?
    }

    let chip: MemberChip
    let portrait: ImageValue?
    let joined: TimeValue?
    /// When a former member left.
    let left: TimeValue?
    let bio: TrustedHTML?
    let diving: Diving?
    let home: Home?
    let groups: [GroupLink]
    let albums: [AlbumCard]
    let reports: [ReportCard]
    let follows: [ReportCard]
    let replies: [Reply]
    let friends: [MemberChip]
    let goals: [GoalItem]
    let points: [Points]
    let study: Study?
    let messageURL: String?
    let feedURL: String
    /// Nil for a member who follows no report.
    let followingURL: String?

    var template: TemplateContext {
        var c = chip.template
        if let portrait { c["portrait"] = .of(portrait) }
        c["joined"] = .of(joined)
        c["left"] = .of(left)
        if let bio, !bio.isEmpty { c["bio"] = .html(bio) }
        if let diving { c["diving"] = .of(diving) }
        if let home { c["home"] = .of(home) }
        c["groups"] = .list(groups)
        c["albums"] = .list(albums)
        c["reports"] = .list(reports)
        c["follows"] = .list(follows)
        c["replies"] = .list(replies)
        c["friends"] = .list(friends)
        c["goals"] = .list(goals)
        if !points.isEmpty { c["points"] = .object(["rows": .list(points)]) }
        if let study { c["study"] = .of(study) }
        if let messageURL { c["message_url"] = .text(messageURL) }
        c["feed_url"] = .text(feedURL)
        c["following_url"] = .text(followingURL)
        return c
    }
}
