import Foundation
import PleinCore
import PleinModel

/// The model stage: the content with its photos' capture times and its git history, as the
/// site model every renderer reads.
struct ModelStage {
    /// When each content file was committed, read again only when HEAD moves.
    private(set) var history = GitHistory.empty
    /// The first reading, started before loading so that both run at once (`git log` over a
    /// long history takes a while; the two use different cores).
    private var firstReading: Background<GitHistory>?
    let content: String
    let readsHistory: Bool
    /// The environment git is started with (`BuildOptions.environment`).
    let environment: [String: String]

    init(content: String, readsHistory: Bool, environment: [String: String]) {
        self.content = content
        self.readsHistory = readsHistory
        self.environment = environment
        firstReading = readsHistory ? Background { GitHistory.read(content: content, environment: environment) } : nil
    }

    /// The model of the whole content, and notes worth telling (as below).
    mutating func run(_ loaded: Content, captureTimes: [String: Moment], threadKeys: ThreadKeys?, now: Moment,
                      sealed: Set<String> = []) -> (SiteModel, notes: [String], change: ModelChange?) {
        var none: SiteModel?
        return run(loaded, change: .everything, last: &none, captureTimes: captureTimes, threadKeys: threadKeys, now: now, sealed: sealed)
    }

    /// The model, and notes worth telling (history unavailable, threads without a secret).
    /// After a change that names records, the model is `last` with those records' pieces made
    /// again in place (`ModelBuilder.replace`), unless the history moved or the edit reached
    /// further; the change returned says which pieces were made again (nil: the whole model was
    /// built). `last` is taken when the model is made from it.
    mutating func run(_ loaded: Content, change: ContentChange, last: inout SiteModel?, captureTimes: [String: Moment],
                      threadKeys: ThreadKeys?, now: Moment, sealed: Set<String> = []) -> (SiteModel, notes: [String], change: ModelChange?) {
        // (The files whose history moved since the last model: their records are made again too.)
        var moved: Set<String>? = []
        if let reading = firstReading {
            history = reading.value
            firstReading = nil
            moved = nil
        } else if readsHistory {
            (history, moved) = GitHistory.refresh(history, content: content, environment: environment)
        }
        var notes: [String] = []
        if let why = history.unavailable { notes.append(why) }
        var replaced: (SiteModel, ModelChange)?
        if let files = change.files, let moved, var previous = last.take() {
            // (Those of records still there: one deleted before the last model is in neither.)
            let records = files.union(moved.filter { FileRole.hasRevision($0) && FileManager.default.fileExists(atPath: content + "/" + $0) })
            if let made = ModelBuilder.replace(records: records, added: change.added, in: &previous, from: loaded, history: history.history,
                                               captureTimes: captureTimes, sealed: sealed, now: now) {
                replaced = (previous, made)
            } else {
                last = previous
            }
        }
        let model = replaced?.0 ?? ModelBuilder.build(loaded, captureTimes: captureTimes, history: history.history, now: now, sealed: sealed)
        if threadKeys == nil, !model.threads.isEmpty {
            notes.append("\(model.threads.count) message thread\(model.threads.count == 1 ? " was" : "s were") not rendered: set PLEIN_SECRET or pass --secret-file")
        }
        return (model, notes, replaced?.1)
    }
}
