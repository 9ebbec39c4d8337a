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

    /// The model, and notes worth telling (history unavailable, threads without a secret).
    /// After a change that names reports, the model is `last` with those reports made again
    /// (`ModelBuilder.replacing`), unless the history moved or the edit reached further; the
    /// change returned says which it was.
    mutating func run(_ loaded: Content, change: ContentChange = .everything, last: SiteModel? = nil, captureTimes: [String: Moment],
                      threadKeys: ThreadKeys?, now: Moment) -> (SiteModel, notes: [String], change: ContentChange) {
        let head = history.head
        if let reading = firstReading {
            history = reading.finish()
            firstReading = nil
        } else if readsHistory {
            history = GitHistory.refresh(history, content: content)
        }
        var notes: [String] = []
        if let why = history.unavailable { notes.append(why) }
        let model: SiteModel
        var made = ContentChange.everything
        if case .reports(let ids) = change, let last, history.head == head,
           let replaced = ModelBuilder.replacing(reports: ids, in: last, from: loaded, history: history.history) {
            model = replaced
            made = change
        } else {
            model = ModelBuilder.build(loaded, captureTimes: captureTimes, history: history.history, now: now)
        }
        if threadKeys == nil, !model.threads.isEmpty {
            notes.append("\(model.threads.count) message thread\(model.threads.count == 1 ? " was" : "s were") not rendered: set PLEIN_SECRET or pass --secret-file")
        }
        return (model, notes, made)
    }
}
