import PleinCore

/// A `ModelBuilder.replace(records:…)` of members' records: edited, renamed, new.
extension ModelEdit {
    mutating func member(_ id: String, _ model: SiteModel) -> Bool {
        guard let record = content.members.first(where: { $0.id == id }) else { return false }
        if newFiles.contains(record.file) { return addMember(record, model) }
        guard let old = model.members[id] else { return false }
        var new = ModelBuilder.member(record, content: content, places: places)
        new.follows = new.follows.filter { model.reports[$0] != nil }
        guard new.left == old.left, new.follows == old.follows else { return false }
        new.friends.sort(by: byName(model))
        (new.groups, new.reports, new.replies) = (old.groups, old.reports, old.replies)
        (new.albums, new.completedGoals) = (old.albums, old.completedGoals)
        new.revision = revision(new.file)
        made.members[id] = new
        change.members.insert(id)
        if new.name.lowercased() != old.name.lowercased() { renamed(id, left: new.left != nil, model) }
        return true
    }

    /// Takes in a new member: their piece, and their place in the list of members (or of those
    /// who left) by name. Nothing else names them: a record that named a member who was not
    /// there was an error the last build would have stopped on. One who follows reports changes
    /// those reports' followers: the whole model is built.
    mutating func addMember(_ record: Member, _ model: SiteModel) -> Bool {
        guard model.members[record.id] == nil else { return false }
        var new = ModelBuilder.member(record, content: content, places: places)
        guard new.follows.isEmpty else { return false }
        new.friends.sort(by: byName(model))
        new.revision = revision(new.file)
        made.members[record.id] = new
        change.members.insert(record.id)
        change.outputsMayChange = true
        let order = byName(model)
        if new.left == nil {
            var list = made.memberOrder ?? model.memberOrder
            insert(record.id, into: &list, by: order)
            made.memberOrder = list
            change.memberOrder = true
        } else {
            var list = made.formerMembers ?? model.formerMembers
            insert(record.id, into: &list, by: order)
            made.formerMembers = list
            change.formerMembers = true
        }
        return true
    }

    /// Puts a member whose name changed (already in `made`) in its new place in every list of
    /// members by name; each list was in that order before, with the member's old name.
    mutating func renamed(_ id: String, left: Bool, _ model: SiteModel) {
        let order = byName(model)
        func moved(_ list: [String]) -> [String] {
            var list = list.filter { $0 != id }
            insert(id, into: &list, by: order)
            return list
        }
        if left {
            made.formerMembers = moved(made.formerMembers ?? model.formerMembers)
            change.formerMembers = true
        } else {
            made.memberOrder = moved(made.memberOrder ?? model.memberOrder)
            change.memberOrder = true
        }
        // Their groups' members (those who left are in none) and the leaderboards, whose ties go by name.
        for gid in model.groups.keys.sorted() {
            guard var owner = group(gid, in: model), owner.members.contains(id) else { continue }
            owner.members = moved(owner.members)
            owner.leaderboard = Leaderboard.standings(owner, byName: order)
            made.groups[gid] = owner
            change.groups.insert(gid)
        }
        // The friends' lists that name them.
        for mid in model.members.keys.sorted() where mid != id {
            guard var friend = member(mid, in: model), friend.friends.contains(id) else { continue }
            let friends = friend.friends.sorted(by: order)
            guard friends != friend.friends else { continue }
            friend.friends = friends
            made.members[mid] = friend
            change.members.insert(mid)
        }
        // Who is present at each study place.
        var locations = made.locations ?? model.locations
        for i in locations.indices where locations[i].present.contains(id) {
            let present = locations[i].present.sorted(by: order)
            guard present != locations[i].present else { continue }
            locations[i].present = present
            made.locations = locations
            change.locations.insert(locations[i].id)
        }
    }
}
