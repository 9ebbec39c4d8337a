import PleinText
import PleinCore
import PleinMarkdown
import PleinModel
import PleinMustache

/// A message thread with the key of its address (made from the build's secret).
struct KeyedThread {
    let thread: ThreadModel
    let key: String

    init?(_ id: String, in renderer: some Rendering) {
        guard let thread = renderer.view.thread(id) else {
            renderer.view.missing.note("thread \(id)")
            return nil
        }
        self.thread = thread
        key = renderer.inputs.options.threadKeys!.key(for: id)
    }

    static func anchor(_ message: MessageModel) -> String { "message-" + Slug.make(message.name) }
}

/// `/messages/<key>/`: a thread for those who have its address. Linked from nowhere,
/// `noindex, nofollow`, and left out of every list, feed and sitemap.
struct ThreadPage: PageRenderer {
    let inputs: RenderInputs
    let id: String

    struct Message: TemplateValues, Encodable {
        let anchor: String
        let author: MemberChip
        let at: TimeValue
        let body: TrustedHTML?
    }

    struct Values: TemplateValues, Encodable {
        let subject: String
        let participants: [MemberChip]
        let messages: [Message]
        let count: String
    }

    func page() -> Page {
        guard let keyed = KeyedThread(id, in: self) else {
            return missingPage("thread \(id)", kind: .thread, path: routes.path(of: .thread(id)), section: .none)
        }
        let t = keyed.thread
        var page = Page(
            kind: .thread, path: routes.thread(keyed.key), title: t.subject,
            description: strings.format("thread_description", ["n": strings.number(t.participants.count)]), section: .none)
        page.values = Values(
            subject: t.subject, participants: t.participants.map(chip),
            messages: t.messages.map { m in
                Message(anchor: KeyedThread.anchor(m), author: chip(m.author), at: time(m.at), body: view.body(m.file)?.html)
            },
            count: strings.count("message_count", t.messages.count))
        page.noindex = true
        page.nofollow = true
        return page
    }
}
