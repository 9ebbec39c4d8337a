import PleinText
import PleinMustache

/// What a member's page shows (see `MemberPage`).
struct MemberProfile: TemplateValues {
    struct Values: TemplateValues {
        let member: MemberProfile
        var template: TemplateContext { ["member": .of(member)] }
    }

    struct Diving: TemplateValues {
        let certification: String?
        let years: String?
        let dives: String?

        var template: TemplateContext {
            var c: TemplateContext = ["certification": .text(certification)]
            if let years { c["years"] = .text(years) }
            if let dives { c["dives"] = .text(dives) }
            return c
        }
    }

    struct Home: TemplateValues {
        let postcode: String?
        let near: String?
        let areaURL: String?

        var template: TemplateContext {
            var c: TemplateContext = ["postcode": .text(postcode)]
            if let near { c["near"] = .text(near) }
            if let areaURL { c["area_url"] = .text(areaURL) }
            return c
        }
    }

    struct GroupLink: TemplateValues {
        let name: String
        let url: String
        let members: String
        var template: TemplateContext { ["name": .text(name), "url": .text(url), "members": .text(members)] }
    }

    struct Reply: TemplateValues {
        let report: String
        let url: String
        let at: TimeValue
        let summary: String
        var template: TemplateContext { ["report": .text(report), "url": .text(url), "at": .of(at), "summary": .text(summary)] }
    }

    struct Points: TemplateValues {
        let group: String
        let url: String
        let points: String
        let goals: String
        let rank: String?
        var template: TemplateContext {
            ["group": .text(group), "url": .text(url), "points": .text(points), "goals": .text(goals), "rank": .text(rank)]
        }
    }

    struct Study: TemplateValues {
        let total: String
        let sessions: String
        let url: String
        let present: String?
        var template: TemplateContext { ["total": .text(total), "sessions": .text(sessions), "url": .text(url), "present": .text(present)] }
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
