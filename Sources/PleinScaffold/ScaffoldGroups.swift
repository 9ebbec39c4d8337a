public import PleinCore
import PleinCheck
import PleinLoad
import Foundation

// The records of groups `plein new` writes: a group, an album, a goal, an event.

extension Scaffold {
    /// A group; `createdBy` defaults to its first member.
    public func group(name: String, members: [String], id: String? = nil, createdBy: String? = nil, visibility: String? = nil) throws(Failure) -> String {
        var chosen = id ?? ""
        if id == nil { chosen = try slug(name, what: "name") }
        let id = chosen
        guard !members.isEmpty else { throw Failure("a group needs at least one member") }
        let ids = try members.map { (m: String) throws(Failure) -> String in try requireMember(m).id }
        if content.groups.contains(where: { $0.name.lowercased() == name.lowercased() }) {
            throw Failure("a group named '\(name)' already exists")
        }
        return try create(ContentLayout.group(id), """
            ---
            name: \(Self.quote(name))
            members: [\(ids.joined(separator: ", "))]
            created_by: \(createdBy ?? ids[0])
            \(visibility.map { "visibility: \($0)\n" } ?? "")---
            \(Placeholders.group)

            """)
    }

    /// An album; `by` is the member who made it (credited in feeds).
    public func album(group: String, title: String, date: String?, by: String? = nil) throws(Failure) -> String {
        guard content.groups.contains(where: { $0.id == group }) else { throw Failure("unknown group '\(group)'") }
        let day = try date.map { (d: String) throws(Failure) -> String in clock.civil(try moment(d)).isoDate } ?? clock.civil(now).isoDate
        let id = try slug(title, what: "title")
        return try create(ContentLayout.album(group: group, id: id), """
            ---
            title: \(Self.quote(title))
            date: \(day)
            \(by.map { "by: \($0)\n" } ?? "")---
            \(Placeholders.album)

            """)
    }

    /// A goal. `added` defaults to today, or to the day it was completed when that is given (an
    /// achievement recorded afterwards was not added after it was done).
    public func goal(group: String, title: String, points: Int, addedBy: String, added: String? = nil,
                     completedBy: String? = nil, completedAt: String? = nil, target: Int? = nil, unit: String? = nil) throws(Failure) -> String {
        guard points > 0 else { throw Failure("points must be a positive whole number") }
        let adder = try requireGroupMember(addedBy, group: group)
        let id = try slug(title, what: "title")
        var completion = ""
        var addedOn = clock.civil(now).isoDate
        if let completedBy {
            let completer = try requireGroupMember(completedBy, group: group)
            let done = try moment(completedAt)
            completion = "completed_by: \(completer.id)\ncompleted_at: \(done.isDateOnly ? clock.civil(done).isoDate : timestamp(done))\n"
            if added == nil, done.seconds < now.seconds { addedOn = clock.civil(done).isoDate }
        } else if completedAt != nil {
            throw Failure("--completed-at needs --completed-by: who completed it")
        }
        if let added { addedOn = clock.civil(try moment(added)).isoDate }
        var tally = ""
        if let target {
            guard target > 0 else { throw Failure("the target must be a positive whole number") }
            tally = "target: \(target)\n" + (unit.map { "unit: \(Self.quote($0))\n" } ?? "") + "tally: []\n"
        } else if unit != nil {
            throw Failure("--unit goes with --target: what the tally counts towards it")
        }
        return try create(ContentLayout.goal(group: group, id: id), """
            ---
            title: \(Self.quote(title))
            points: \(points)
            added_by: \(adder.id)
            added: \(addedOn)
            \(completion)\(tally)---
            \(Placeholders.goal)

            """)
    }

    /// A group's event; `starts` and `ends` as the author writes them (a date alone is all day).
    // MARK: Answers checked one at a time (what `plein new` asks on a terminal)

    /// A group of the site, by id.
    public func checkGroup(_ group: String) throws(Failure) {
        guard content.groups.contains(where: { $0.id == group }) else {
            let hint = Suggestions.closest(to: group, in: content.groups.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
            let known = content.groups.isEmpty ? "; the site has no groups yet" : hint.isEmpty ? "; the groups are " + content.groups.map(\.id).joined(separator: ", ") : ""
            throw Failure("unknown group '\(group)'\(hint)\(known)")
        }
    }

    /// A date or time as `plein new` takes it.
    public func checkTime(_ text: String) throws(Failure) { _ = try moment(text) }

    /// A member of `group`.
    public func checkGroupMember(_ reference: String, group: String) throws(Failure) { _ = try requireGroupMember(reference, group: group) }

    public func event(group: String, title: String, starts: String, ends: String?, place: String?, by: String?, body: String? = nil) throws(Failure) -> String {
        try checkGroup(group)
        func written(_ text: String) throws(Failure) -> String {
            let m = try moment(text)
            return m.isDateOnly ? clock.civil(m).isoDate : timestamp(m)
        }
        var fields: [(String, FieldValue)] = []
        if let ends {
            let (from, to) = (try moment(starts), try moment(ends))
            if to.isDateOnly ? to.seconds + 86_400 <= from.seconds : to < from { throw Failure("the event ends before it starts") }
            fields.append(("ends", .plain(try written(ends))))
        }
        if let place { fields.append(("place", .text(place))) }
        if let by { fields.append(("by", .plain(try requireGroupMember(by, group: group).id))) }
        let id = try slug(title, what: "title")
        return try create(ContentLayout.event(group: group, id: id), """
            ---
            title: \(Self.quote(title))
            starts: \(try written(starts))
            \(FieldValue.lines(fields))---
            \(body ?? Placeholders.event)

            """)
    }
}
