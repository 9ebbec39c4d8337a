import Foundation
import Synchronization
import PleinMarkdown
import PleinText
import Testing

@Suite struct MarkdownTests {
    /// The byte search that bodies go through on every page: the standard library's answer for
    /// ASCII targets, at the start, the end, across a multi-byte text and where a first byte
    /// recurs before the match.
    @Test func byteSearchFindsWhatContainsFinds() {
        let texts = ["", "<img src=\"a.jpg\">", "tekst <p>één</p> <img src", "<im<img ", "ééé<img ", "<img", "<im", "x<img x", "🚲<img 🚲"]
        for text in texts {
            for target in ["<img ", "<", "img", "<img src", "é", "🚲<img", ""] {
                #expect(ByteSearch.contains(text, target) == (target.isEmpty || text.contains(target)), "\(text) / \(target)")
            }
        }
    }

    /// The byte replacement of rendered bodies: Foundation's answer for ASCII targets, at the
    /// start, the end, side by side, where the pivot byte recurs without a match, and in a
    /// batch of texts rendered together as each alone.
    @Test func byteReplacementReplacesWhatFoundationReplaces() {
        let texts = ["", " />", "a />b />", "<br /><br />", "x/ /> //>", "één /> 🚲 />", "/ / / ", "abc", "id=\"fn-1\" id=\"fn-2\""]
        for text in texts {
            for (target, replacement) in [(" />", ">"), ("id=\"fn-", "id=\"fn-x-"), ("/", ""), ("é", "e"), ("abc", "abcabc")] {
                #expect(ByteSearch.replacing(text, target, replacement) == text.replacingOccurrences(of: target, with: replacement),
                        "\(text) / \(target)")
            }
        }
        let sources = ["# A\n\n*b* [c](/d/) ~~e~~", String(repeating: "[", count: 40) + "x", "f[^1]\n\n[^1]: g", ""]
        let together = Markdown.render(sources.map { Markdown.Text($0, idPrefix: "p", absoluteURL: { "https://x.org" + $0 }) })
        #expect(together == sources.map { Markdown.render($0, idPrefix: "p", absoluteURL: { "https://x.org" + $0 }) })
    }

    /// A body's HTML for feeds (every target absolute) is the HTML of the same text with its
    /// targets written absolute: links with titles, images, autolinks, a footnote's own links
    /// and a link in a note, targets with `&`, `'`, `%` and a fragment.
    @Test func feedHTMLIsTheTextWithItsTargetsAbsolute() {
        let page = "https://buurt.example/reports/1001/a/"
        let resolve: (String) -> String = { target in
            target.hasPrefix("https:") ? target : target.hasPrefix("/") ? "https://buurt.example" + target : page + target
        }
        for target in ["/users/anna/", "foto.jpg", "../b/?x=1&y=2", "#fn-1", "/a%20b/", "/it's/", "https://e.org/x"] {
            let written = "Zie [de melding](\(target) \"titel\") en ![foto](\(target)) en [nog eens](\(target)).[^1]\n\n"
                + "[^1]: Een noot met [een link](/notes/).\n\n- lijst *met* <https://auto.example/link>\n"
            let absolute = written.replacingOccurrences(of: "(\(target)", with: "(\(resolve(target))")
                .replacingOccurrences(of: "(/notes/)", with: "(https://buurt.example/notes/)")
            let rendered = Markdown.render(written, idPrefix: "r", absoluteURL: resolve)
            #expect(rendered.absoluteHTML == Markdown.render(absolute, idPrefix: "r").html, "\(target)")
        }
    }

    @Test func rendersGitHubFlavouredMarkdown() {
        let out = Markdown.render("""
            # Titel

            | a | b |
            |:--|--:|
            | 1 | 2 |

            ~~weg~~ en https://example.org

            - [x] klaar
            - [ ] nog niet
            """)
        #expect(out.html.markup.contains("<h2>Titel</h2>"))
        #expect(out.html.markup.contains("<table>"))
        #expect(out.html.markup.contains("style=\"text-align: right\""))
        #expect(!out.html.markup.contains(" align="))
        #expect(out.html.markup.contains("<del>weg</del>"))
        #expect(out.html.markup.contains("<a href=\"https://example.org\">https://example.org</a>"))
        #expect(out.html.markup.contains("type=\"checkbox\" checked=\"\" disabled=\"\""))
    }

    @Test func summariesHoldATablesTextWithoutItsPipes() {
        let out = Markdown.render("Het programma:\n\n| Tijd | Activiteit |\n|---|---|\n| 14:00 | Start **taart** <b>!</b> |\n\nTot dan.\n")
        #expect(out.text == "Het programma: Tijd Activiteit 14:00 Start taart ! Tot dan.")
    }

    /// What cmark-gfm takes minutes over is never given to it, and is found at its line; lists
    /// nested as people write them are rendered (issue 58).
    @Test func markdownIsRenderedInBoundedTime() {
        let deep = "Tekst.\n\n" + String(repeating: "+ ", count: 100_000) + "\n"
        let out = Markdown.render(deep)
        // (Shown as it is: cmark-gfm never saw it.)
        #expect(out.html.markup.hasPrefix("<pre>") && !out.html.markup.contains("<li>"))
        #expect(MarkdownBounds.tooDeep(deep)?.line == 2)
        #expect(MarkdownBounds.tooDeep("- a\n  - b\n    - c\n      > d\n1. x\n> > > - a\n") == nil)
        #expect(MarkdownBounds.tooDeep(String(repeating: "1. ", count: 33)) != nil && MarkdownBounds.tooDeep(String(repeating: "1. ", count: 32)) == nil)
        // Emphasis marks by the ten thousand in one paragraph (26 s at 200 KB): refused; in
        // paragraphs of their own, or in code, they are no more than text.
        let marks = String(repeating: "*a **a ", count: 14_000) + "b" + String(repeating: " a** a*", count: 14_000)
        #expect(MarkdownBounds.excess(marks)?.excess == .delimiters(runs: 2_001))
        #expect(Markdown.render(marks).html.markup.hasPrefix("<pre>"))
        #expect(MarkdownBounds.excess(String(repeating: "*a* b\n\n", count: 5_000)) == nil)
        #expect(MarkdownBounds.excess("```\n" + String(repeating: "a_b ", count: 5_000) + "\n```\n") == nil)
        // Footnote references by the thousand, each linked back from its note (400 KB made a
        // page of 32 MB in 3 s): refused past a thousand; a note's definition is no reference.
        let notes = String(repeating: "[^a]", count: 1_001) + "\n\n[^a]: x\n"
        #expect(MarkdownBounds.excess(notes)?.excess == .footnotes(references: 1_001))
        #expect(Markdown.render(notes).html.markup.hasPrefix("<pre>"))
        #expect(MarkdownBounds.excess(String(repeating: "[^a]", count: 1_000) + "\n\n[^a]: x\n") == nil)
        #expect(MarkdownBounds.excess(String(repeating: "[^n]: x\n", count: 2_000)) == nil)
        // Ten thousand tasks (which took minutes before): each box labelled.
        let tasks = String(repeating: "- [ ] a\n", count: 10_000)
        let list = Markdown.render(tasks).html.markup
        #expect(list.components(separatedBy: "<label>").count == 10_001)
    }

    @Test func taskListBoxesAreLabelledByTheirItems() {
        let out = Markdown.render("- [x] Flessen vullen\n- [ ] **Lood** meenemen\n  - [ ] 4 kg\n")
        #expect(out.html.markup == """
            <ul>
            <li><label><input type="checkbox" checked="" disabled=""> Flessen vullen</label></li>
            <li><label><input type="checkbox" disabled=""> <strong>Lood</strong> meenemen</label>
            <ul>
            <li><label><input type="checkbox" disabled=""> 4 kg</label></li>
            </ul>
            </li>
            </ul>

            """)
    }

    @Test func fencedCodeNamesItsLanguageAsAClass() {
        let out = Markdown.render("```text\nhallo\n```\n")
        #expect(out.html.markup == "<pre><code class=\"language-text\">hallo\n</code></pre>\n")
    }

    @Test func rawHTMLIsNeverPassedThrough() {
        let out = Markdown.render("<script>alert(1)</script>\n\nHi <img src=x onerror=alert(1)> <b>b</b>\n\n<div>x</div>")
        #expect(!out.html.markup.contains("<script"))
        #expect(!out.html.markup.contains("onerror"))
        #expect(!out.html.markup.contains("<div"))
        #expect(!out.html.markup.contains("<b>"))
    }

    /// Found by fuzzing: an unusable image inside another's description was freed twice.
    @Test func nestedUnusableImagesBecomeTheirText() {
        let out = Markdown.render("![outer ![inner](javascript:x) text](javascript:y) and ![a ![b]()]()")
        #expect(out.html.markup == "<p>outer inner text and a b</p>\n")
    }

    @Test(arguments: [
        "[x](javascript:alert(1))", "[x](JavaScript:alert(1))", "[x](  javascript:alert(1))", "[x](vbscript:msgbox)",
        "[x](data:text/html;base64,PHNjcmlwdD4=)", "![x](file:///etc/passwd)", "<javascript:alert(1)>",
    ])
    func dangerousURLsAreRemoved(_ source: String) {
        let out = Markdown.render(source)
        #expect(!out.html.markup.lowercased().contains("href=\"javascript:"))
        #expect(!out.html.markup.lowercased().contains("href=\"vbscript:"))
        #expect(!out.html.markup.contains("data:text/html"))
        #expect(!out.html.markup.contains("file:"))
        #expect(out.links.isEmpty)
    }

    @Test func safeURLsStay() {
        #expect(Markdown.isSafeURL("https://example.org"))
        #expect(Markdown.isSafeURL("../other/"))
        #expect(Markdown.isSafeURL("mailto:a@example.org"))
        #expect(Markdown.isSafeURL("data:image/png;base64,AAAA"))
        #expect(!Markdown.isSafeURL("java\tscript:alert(1)"))
    }

    @Test func reportsLinksAndImagesInOrder() {
        let out = Markdown.render("[a](/x/) ![b](foto.jpg) [c](https://example.org/)")
        #expect(out.links == [.init(kind: .link, url: "/x/"), .init(kind: .image, url: "foto.jpg"), .init(kind: .link, url: "https://example.org/")])
    }

    @Test func makesURLsAbsoluteForFeeds() {
        let out = Markdown.render("[a](../b/) ![c](d.jpg)", absoluteURL: { "https://example.org/r/" + $0 })
        #expect(out.html.markup.contains("href=\"../b/\""))
        #expect(out.absoluteHTML?.markup.contains("href=\"https://example.org/r/../b/\"") == true)
        #expect(out.absoluteHTML?.markup.contains("src=\"https://example.org/r/d.jpg\"") == true)
    }

    @Test func footnoteIDsArePrefixedPerBody() {
        let out = Markdown.render("Tekst[^1]\n\n[^1]: Noot", idPrefix: "r1")
        #expect(out.html.markup.contains("id=\"fn-r1-1\""))
        #expect(out.html.markup.contains("href=\"#fn-r1-1\""))
        #expect(!out.html.markup.contains("id=\"fn-1\""))
    }

    @Test func plainTextForSummaries() {
        #expect(Markdown.render("# Kop\n\nEen *zin* met [link](x).").text == "Kop Een zin met link.")
    }

    /// cmark-gfm's `cmark_parser_finish` is not thread-safe; plein serialises it. Rendering the
    /// same documents on many threads must give the serial output.
    @Test func concurrentRenderingMatchesSerial() {
        let docs = (0..<400).map { "Doc \($0): ~~strike~~ www.example.org/\($0) *em* | a |\n|---|\n| \($0) |" }
        let serial = docs.map { Markdown.render($0).html.markup }
        let results = ResultBox(Array(repeating: "", count: docs.count))
        DispatchQueue.concurrentPerform(iterations: docs.count) { i in
            results.set(i, Markdown.render(docs[i]).html.markup)
        }
        #expect(results.values == serial)
    }
}

/// Collects results written from concurrent iterations at distinct indexes.
final class ResultBox: Sendable {
    private let storage: Mutex<[String]>
    init(_ values: [String]) { storage = Mutex(values) }
    func set(_ i: Int, _ value: String) { storage.withLock { $0[i] = value } }
    var values: [String] { storage.withLock { $0 } }
}
