import Foundation
import PleinModel
import PleinCore
@testable import PleinBuild
import Testing

@Suite(.serialized) struct ThreadTests {
    /// Distinctive text of every thread: its subject and a piece of each message.
    func threadTexts() -> [String] {
        let content = Pipeline.check(content: Repo.content).content
        var texts: [String] = []
        for thread in content.threads {
            texts.append(thread.subject)
            for message in thread.messages {
                let line = message.body.markdown.split(separator: "\n").first { $0.count > 25 }.map(String.init) ?? message.body.markdown
                texts.append(String(line.prefix(40)))
            }
        }
        return texts
    }

    @Test func withoutASecretNoThreadReachesTheOutput() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        // The output is a folder inside the temporary one, so the spare kept beside it goes too.
        let output = dir.path + "/public"
        var options = BuildOptions.test(output: output, suite: "threads")
        options.secret = nil
        let report = Pipeline.build(options)
        #expect(report.succeeded)
        #expect(report.notes.count { $0.contains("thread") } == 1, "one note, not one per thread")
        let texts = threadTexts()
        #expect(texts.count > 6)
        for (path, needle) in occurrences(of: texts, in: output) {
            Issue.record("\(path) contains thread text '\(needle)'")
        }
        #expect(!FileManager.default.fileExists(atPath: output + "/messages"))
        // A message written through the profile's button would never appear: there is no button.
        #expect(occurrences(of: ["Stuur een bericht"], in: output).isEmpty, "a profile offers to send a message")
    }

    @Test func withASecretEveryThreadIsAtItsKeyAndLinkedFromNowhere() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let secret = "Zq9-correct-horse-battery"
        var options = BuildOptions.test(output: dir.path + "/a", suite: "threads")
        options.secret = Array(secret.utf8)
        #expect(Pipeline.build(options).succeeded)
        let keys = try #require(ThreadKeys(secret: Array(secret.utf8)))
        let content = Pipeline.check(content: Repo.content).content
        let files = snapshotTree(dir.path + "/a")
        for thread in content.threads {
            let key = keys.key(for: thread.id)
            let page = try #require(files["messages/\(key)/index.html"].map { String(decoding: $0, as: UTF8.self) }, "thread \(thread.id) is at its key")
            #expect(page.contains("<meta name=\"robots\" content=\"noindex, nofollow\">"))
            // Sealed under the key its link carries: the subject is in the page opened, not in the file.
            #expect(!page.contains(thread.subject))
            let envelope = try #require(page.firstRange(of: "id=\"sealed-envelope\">").map { page[$0.upperBound...].prefix { $0 != "<" } })
            let opened = try #require(keys.sealing(for: thread.id).open(Array(Data(base64Encoded: String(envelope))!), at: "messages/\(key)/index.html"))
            #expect(String(decoding: opened, as: UTF8.self).contains(thread.subject.replacingOccurrences(of: "'", with: "&#39;")))
            #expect(keys.fragment(for: thread.id).count == 43)
            #expect(files["messages/\(key)/feed.xml"] == nil, "a thread has no feed: its readers could not open it")
            for (path, _) in occurrences(of: [key], in: dir.path + "/a") where !path.hasPrefix("messages/\(key)/") {
                Issue.record("\(path) refers to thread \(thread.id)")
            }
        }
        for (path, _) in occurrences(of: [secret], in: dir.path + "/a") { Issue.record("the secret appears in \(path)") }
        // Without the links, the output holds no word of any thread.
        for (path, needle) in occurrences(of: threadTexts(), in: dir.path + "/a") { Issue.record("\(path) contains thread text '\(needle)'") }
        #expect(occurrences(of: ["Stuur een bericht"], in: dir.path + "/a").contains { $0.path.hasPrefix("users/") },
                "with threads published, profiles offer to send a message")

        // The same secret gives the same addresses.
        options.output = dir.path + "/b"
        #expect(Pipeline.build(options).succeeded)
        let again = Set(snapshotTree(dir.path + "/b").keys.filter { $0.hasPrefix("messages/") })
        #expect(again == Set(files.keys.filter { $0.hasPrefix("messages/") }))
        #expect(again.count == content.threads.count)
    }
}
