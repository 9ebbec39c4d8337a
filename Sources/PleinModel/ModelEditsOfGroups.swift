public import PleinCore

// The edits of a group's records, and of the records of the site that are not a member's or a
// report's: its albums, goals and events, study locations, threads and check-ins.

extension ModelEdit {
    /// A group's piece as made so far.
    func group(_ id: String, in model: SiteModel) -> GroupModel? {
        made.groups[id] ?? model.groups[id]
    }

    mutating func group(_ id: String, _ model: SiteModel) -> Bool {
        guard let record = content.groups.first(where: { $0.id == id }) else { return false }
        // A group that is not published has no piece (and must stay unpublished).
        guard let old = group(id, in: model) else { return !published.groups.contains(id) }
        guard record.name == old.name, record.visibility == old.visibility,
              unique(record.members.compactMap { content.memberIndex.resolve($0.value) }).sorted(by: byName(model)) == everMembers(of: old, model)
        else { return false }
        var new = GroupModel(id: old.id, file: old.file, name: old.name, visibility: old.visibility, members: old.members,
                             createdBy: record.createdBy.flatMap { content.memberIndex.resolve($0.value) }, body: record.body)
        new.revision = revision(old.file)
        (new.albums, new.openGoals, new.completedGoals) = (old.albums, old.openGoals, old.completedGoals)
        (new.leaderboard, new.events) = (old.leaderboard, old.events)
        made.groups[id] = new
        change.groups.insert(id)
        return true
    }

    /// The members a group's list names, those who left included, as the model knows them: its
    /// members, and the former members whose page names it.
    func everMembers(of group: GroupModel, _ model: SiteModel) -> [String] {
        let former = model.formerMembers.filter { model.members[$0]?.groups.contains(group.id) == true }
        return (group.members + former).sorted(by: byName(model))
    }

    /// Changes a group's piece with `edit`; a group that is not published has none to change.
    mutating func inGroup(_ id: String, _ model: SiteModel, _ edit: (inout GroupModel) -> Bool) -> Bool {
        guard var owner = group(id, in: model) else { return !published.groups.contains(id) }
        guard edit(&owner) else { return false }
        made.groups[id] = owner
        change.groups.insert(id)
        return true
    }

    mutating func album(_ group: String, _ id: String, _ model: SiteModel) -> Bool {
        guard let record = content.albums.first(where: { $0.group == group && $0.id == id }) else { return false }
        var new = ModelBuilder.album(record, captureTimes: captureTimes, resolve: { [content] in content.memberIndex.resolve($0) })
        new.revision = revision(new.file)
        let photos = self.group(group, in: model)?.albums.first { $0.id == id }?.photos.map(\.slug).sorted()
        let kept = inGroup(group, model) { owner in
            guard let index = owner.albums.firstIndex(where: { $0.id == id }) else { return false }
            let old = owner.albums[index]
            // Members' lists of albums hold the albums they took photos in, newest first.
            guard new.date == old.date, Set(new.photos.compactMap(\.by)) == Set(old.photos.compactMap(\.by)) else { return false }
            owner.albums[index] = new
            return true
        }
        // (A photo added or deleted: its page, and those of photos whose names it shares.)
        if made.groups[group].flatMap({ $0.albums.first { $0.id == id } })?.photos.map(\.slug).sorted() != photos {
            change.outputsMayChange = true
        }
        return kept
    }

    mutating func goal(_ group: String, _ id: String, _ model: SiteModel) -> Bool {
        guard let record = content.goals.first(where: { $0.group == group && $0.id == id }) else {
            // A deleted goal, still open: out of its group's (members' lists hold completed ones).
            let gone = self.group(group, in: model)?.openGoals.first { $0.id == id }
            let byName = byName(model)
            let kept = inGroup(group, model) { owner in
                guard let index = owner.openGoals.firstIndex(where: { $0.id == id }) else { return false }
                owner.openGoals.remove(at: index)
                // (Its last goal takes its leaderboard: other outputs.)
                guard !(owner.openGoals.isEmpty && owner.completedGoals.isEmpty) else { return false }
                owner.leaderboard = Leaderboard.standings(owner, byName: byName)
                return true
            }
            if kept, let gone { change.removedFiles.insert(gone.file) }
            return kept
        }
        var new = ModelBuilder.goal(record, index: content.memberIndex)
        new.revision = revision(new.file)
        let byName = byName(model)
        let isNew = newFiles.contains(record.file)
        return inGroup(group, model) { owner in
            if let index = owner.openGoals.firstIndex(where: { $0.id == id }) {
                guard !isNew, new.completedBy == nil else { return false }
                owner.openGoals[index] = new
                owner.openGoals.sort(by: GoalModel.byPointsThenTitle)
            } else if !isNew, let index = owner.completedGoals.firstIndex(where: { $0.id == id }) {
                // Members' lists of completed goals, newest first.
                let old = owner.completedGoals[index]
                guard new.completedBy == old.completedBy, new.completedAt == old.completedAt else { return false }
                owner.completedGoals[index] = new
                owner.completedGoals.sort(by: GoalModel.newestFirst)
            } else {
                // A new goal, still open, in a group that has goals (its leaderboard is there).
                guard isNew, new.completedBy == nil, !(owner.openGoals.isEmpty && owner.completedGoals.isEmpty) else { return false }
                owner.openGoals.append(new)
                owner.openGoals.sort(by: GoalModel.byPointsThenTitle)
            }
            owner.leaderboard = Leaderboard.standings(owner, byName: byName)
            return true
        }
    }

    mutating func event(_ group: String, _ id: String, _ model: SiteModel) -> Bool {
        guard let record = content.events.first(where: { $0.group == group && $0.id == id }) else {
            // A deleted event: out of its group's (its page and calendar go with it).
            let gone = self.group(group, in: model)?.events.first { $0.id == id }
            let kept = inGroup(group, model) { owner in
                guard let index = owner.events.firstIndex(where: { $0.id == id }) else { return false }
                owner.events.remove(at: index)
                // (Its last event takes its calendar, and perhaps the site's: other outputs.)
                return !owner.events.isEmpty
            }
            if kept, let gone {
                change.outputsMayChange = true
                change.removedFiles.insert(gone.file)
            }
            return kept
        }
        var new = ModelBuilder.event(record, places: places, index: content.memberIndex)
        new.revision = revision(new.file)
        // (A new event takes its place among its group's: the outputs are others, its page's.)
        let isNew = newFiles.contains(record.file)
        let kept = inGroup(group, model) { owner in
            if let index = owner.events.firstIndex(where: { $0.id == id }) {
                guard !isNew else { return false }
                owner.events[index] = new
            } else {
                guard isNew else { return false }
                owner.events.append(new)
            }
            owner.events.sort(by: GroupEventModel.byStart)
            return true
        }
        if kept, isNew { change.outputsMayChange = true }
        return kept
    }

    mutating func location(_ id: String, _ model: SiteModel) -> Bool {
        var locations = made.locations ?? model.locations
        guard let record = content.locations.first(where: { $0.id == id }), let index = locations.firstIndex(where: { $0.id == id })
        else { return false }
        var new = LocationModel(id: record.id, file: record.file, place: record.place, body: record.body)
        new.present = locations[index].present
        new.revision = revision(new.file)
        locations[index] = new
        made.locations = locations
        change.locations.insert(id)
        return true
    }

    mutating func thread(_ id: String, _ model: SiteModel) -> Bool {
        var threads = made.threads ?? model.threads
        guard let record = content.threads.first(where: { $0.id == id }), let index = threads.firstIndex(where: { $0.id == id })
        else { return false }
        threads[index] = ModelBuilder.thread(record, index: content.memberIndex)
        made.threads = threads
        change.threads.insert(id)
        return true
    }

    mutating func sessions(_ model: SiteModel) -> Bool {
        let before = Set(model.sessions.map(\.member))
        let (sessions, asOf) = ModelBuilder.sessions(content, members: model.members)
        var locations = made.locations ?? model.locations
        for i in locations.indices { locations[i].present = ModelBuilder.present(at: locations[i].id, sessions, byName: byName(model)) }
        made.sessions = (sessions, asOf)
        made.locations = locations
        change.sessions = (change.sessions ?? []).union(before).union(sessions.map(\.member))
        // A member who studies has a progress page.
        if Set(sessions.map(\.member)) != before { change.outputsMayChange = true }
        change.locations.formUnion(locations.map(\.id))
        return true
    }
}
