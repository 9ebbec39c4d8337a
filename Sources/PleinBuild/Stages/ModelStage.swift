import PleinCore
import PleinModel

/// The model stage: the content with its photos' capture times and its git history, as the
/// site model every renderer reads.
struct ModelStage {
    /// When each content file was committed, read again only when HEAD moves.
    private(set) var history = GitHistory.empty
    /// The first reading, started before loading so that both run at once.
    private var firstReading: HistoryReading?
    let content: String
    let readsHistory: Bool

    init(content: String, readsHistory: Bool) {
        self.content = content
        self.readsHistory = readsHistory
        firstReading = readsHistory ? HistoryReading(content: content) : nil
    }

    /// The model of the whole content, and notes worth telling (as below).
    mutating func run(_ loaded: Content, captureTimes: [String: Moment], threadKeys: ThreadKeys?, now: Moment,
                      sealed: Set<String> = []) -> (SiteModel, notes: [String], change: ContentChange) {
        var none: SiteModel?
        return run(loaded, change: .everything, last: &none, captureTimes: captureTimes, threadKeys: threadKeys, now: now, sealed: sealed)
    }

    /// The model, and notes worth telling (history unavailable, threads without a secret).
    /// After a change that names reports, the model is `last` with those reports made again in
    /// place (`ModelBuilder.replace`), unless the history moved or the edit reached further; the
    /// change returned says which it was. `last` is taken when the model is made from it.
    mutating func run(_ loaded: Content, change: ContentChange, last: inout SiteModel?, captureTimes: [String: Moment],
                      threadKeys: ThreadKeys?, now: Moment, sealed: Set<String> = []) -> (SiteModel, notes: [String], change: ContentChange) {
        let head = history.head
        if let reading = firstReading {
            history = reading.finish()
            firstReading = nil
        } else if readsHistory {
            history = GitHistory.refresh(history, content: content)
        }
        var notes: [String] = []
        if let why = history.unavailable { notes.append(why) }
        var replaced: SiteModel?
        if case .reports(let ids) = change, history.head == head, var previous = last.take() {
            if ModelBuilder.replace(reports: ids, in: &previous, from: loaded, history: history.history) {
                replaced = previous
            } else {
                last = previous
            }
        }
        let model = replaced ?? ModelBuilder.build(loaded, captureTimes: captureTimes, history: history.history, now: now, sealed: sealed)
        let made = replaced == nil ? ContentChange.everything : change
        if threadKeys == nil, !model.threads.isEmpty {
            notes.append("\(model.threads.count) message thread\(model.threads.count == 1 ? " was" : "s were") not rendered: set PLEIN_SECRET or pass --secret-file")
        }
        return (model, notes, made)
    }
}
