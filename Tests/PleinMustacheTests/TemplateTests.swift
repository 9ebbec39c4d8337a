import PleinText
import PleinMustache
import Testing

/// Renders `template` (named "main") with the given partials.
private func render(_ template: String, _ context: TemplateContext = [:], partials: [String: String] = [:]) throws -> String {
    var library = TemplateLibrary()
    library.register(try Template(template), named: "main")
    for (name, text) in partials { library.register(try Template(text), named: name) }
    return String(decoding: library.render(context, withTemplate: "main") ?? [], as: UTF8.self)
}

private func syntaxError(_ template: String) -> TemplateSyntaxError? {
    do {
        _ = try Template(template)
        return nil
    } catch {
        return error
    }
}

@Suite struct InterpolationTests {
    @Test func textIsEscapedByEveryTagAndOnlyHTMLIsRaw() throws {
        let context: TemplateContext = ["x": .text("<a href=\"y\">Tom & Jerry's</a>")]
        let escaped = "&lt;a href=&quot;y&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
        #expect(try render("{{x}}", context) == escaped)
        #expect(try render("{{{x}}}|{{&x}}|{{{ x }}}", context) == "\(escaped)|\(escaped)|\(escaped)")
        #expect(try render("{{x}}", ["x": .html(TrustedHTML(literal: "<b>"))]) == "&lt;b&gt;")
        #expect(try render("{{{x}}}", ["x": .html(TrustedHTML(literal: "<b>"))]) == "<b>")
    }

    @Test func numbersFlagsAndMissingValues() throws {
        #expect(try render("{{n}} {{f}} {{t}} [{{missing}}] [{{{missing}}}]", ["n": .number(-42), "f": .flag(false), "t": .flag(true)])
            == "-42 false true [] []")
        #expect(try render("{{ n }}", ["n": .number(7)]) == "7")
    }

    @Test func dottedNamesWalkIntoObjects() throws {
        let context: TemplateContext = ["a": .object(["b": .object(["c": .text("deep")])]), "c": .text("top")]
        #expect(try render("{{a.b.c}}|{{a.x.c}}|{{a.b.c.d}}", context) == "deep||")
        // The first part is looked up through the stack, the rest only inside it.
        #expect(try render("{{#a}}{{b.c}}{{/a}}", context) == "deep")
        #expect(try render("{{#a.b}}{{c}}{{/a.b}}", context) == "deep")
    }

    @Test func anchoredNamesDoNotClimbTheStack() throws {
        let context: TemplateContext = ["name": .text("outer"), "inner": .object(["other": .text("x")])]
        #expect(try render("{{#inner}}[{{name}}][{{.name}}][{{.other}}]{{/inner}}", context) == "[outer][][x]")
    }

    @Test func theImplicitIteratorIsTheCurrentValue() throws {
        #expect(try render("{{#s}}({{.}}){{/s}}", ["s": .text("a&b")]) == "(a&amp;b)")
        #expect(try render("{{#s}}({{{.}}}){{/s}}", ["s": .text("a&b")]) == "(a&amp;b)")
        #expect(try render("{{#s}}({{{.}}}){{/s}}", ["s": .html(TrustedHTML(literal: "<b>"))]) == "(<b>)")
    }

    @Test func textIsCopiedAsItIs() throws {
        #expect(try render("héllo {{x}} wörld\n{ } {x} }}", ["x": .text("ü")]) == "héllo ü wörld\n{ } {x} }}")
        #expect(try render("") == "")
        #expect(try render("{{x}}", ["x": .text("")]) == "")
    }
}

@Suite struct SectionTests {
    @Test func listsRepeatAndEmptyListsAreFalsy() throws {
        let context: TemplateContext = ["items": .list([["n": .text("a")], ["n": .text("b")]]), "none": .list([])]
        #expect(try render("{{#items}}<{{n}}>{{/items}}", context) == "<a><b>")
        #expect(try render("{{#none}}x{{/none}}{{^none}}empty{{/none}}", context) == "empty")
        #expect(try render("{{^items}}x{{/items}}", context) == "")
    }

    @Test func flagsShowOrHideWithoutChangingTheContext() throws {
        let context: TemplateContext = ["yes": .flag(true), "no": .flag(false), "name": .text("A")]
        #expect(try render("{{#yes}}{{name}}{{/yes}}{{#no}}hidden{{/no}}{{^no}}!{{/no}}{{^yes}}?{{/yes}}", context) == "A!")
    }

    @Test func presentValuesAreTruthyEvenWhenEmptyOrZero() throws {
        let context: TemplateContext = ["empty": .text(""), "zero": .number(0), "object": .object([:])]
        #expect(try render("{{#empty}}e{{/empty}}{{#zero}}z{{/zero}}{{#object}}o{{/object}}{{^zero}}!{{/zero}}", context) == "ezo")
        #expect(try render("{{#missing}}m{{/missing}}{{^missing}}absent{{/missing}}") == "absent")
    }

    @Test func innerContextsShadowOuterOnes() throws {
        let context: TemplateContext = [
            "name": .text("outer"),
            "a": .object(["name": .text("a"), "b": .object(["c": .text("c")])]),
        ]
        #expect(try render("{{#a}}{{name}}{{#b}}{{name}}{{c}}{{/b}}{{/a}}{{name}}", context) == "aacouter")
    }

    @Test func standaloneSectionTagsLeaveNoLines() throws {
        let template = "<ul>\n  {{#items}}\n  <li>{{n}}</li>\n  {{/items}}\n</ul>\n"
        let context: TemplateContext = ["items": .list([["n": .text("1")], ["n": .text("2")]])]
        #expect(try render(template, context) == "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>\n")
        #expect(try render("a\r\n{{#f}}\r\nb\r\n{{/f}}\r\nc", ["f": .flag(true)]) == "a\r\nb\r\nc")
        // Not standalone: text on the same line.
        #expect(try render(" {{#f}}x{{/f}} \n", ["f": .flag(true)]) == " x \n")
        // Standalone at the end of the template without a final line break.
        #expect(try render("a\n{{#f}}\nb\n{{/f}}", ["f": .flag(true)]) == "a\nb\n")
    }
}

@Suite struct CommentAndDelimiterTests {
    @Test func commentsRenderNothing() throws {
        #expect(try render("a{{! a comment }}b") == "ab")
        #expect(try render("a\n  {{! standalone\n over lines }}\nb") == "a\nb")
    }

    @Test func delimitersCanBeChanged() throws {
        let context: TemplateContext = ["x": .text("<y>")]
        #expect(try render("{{=<% %>=}}<% x %> {{x}} <%={{ }}=%>{{x}}", context) == "&lt;y&gt; {{x}} &lt;y&gt;")
        #expect(try render("a\n{{=| |=}}\n|x|", context) == "a\n&lt;y&gt;")
    }
}

@Suite struct PartialTests {
    @Test func partialsSeeTheCurrentContext() throws {
        let context: TemplateContext = ["people": .list([["name": .text("Anna")], ["name": .text("Bas")]])]
        #expect(try render("{{#people}}{{> chip}};{{/people}}", context, partials: ["chip": "[{{name}}]"]) == "[Anna];[Bas];")
        #expect(try render("a{{> nowhere}}b") == "ab")
    }

    @Test func standalonePartialsIndentEveryLine() throws {
        let partials = ["box": "<div>\n  {{x}}\n</div>\n"]
        #expect(try render("<main>\n  {{> box}}\n</main>\n", ["x": .text("1\n2")], partials: partials)
            == "<main>\n  <div>\n    1\n2\n  </div>\n</main>\n")
        // An inline partial is not indented.
        #expect(try render("  {{> box}} after\n", ["x": .text("y")], partials: partials) == "  <div>\n  y\n</div>\n after\n")
    }

    @Test func aPartialIncludingItselfStops() throws {
        let output = try render("{{> loop}}", partials: ["loop": "x{{> loop}}"])
        #expect(output.count > 10 && output.count < 1000 && output.allSatisfy { $0 == "x" })
    }
}

@Suite struct InheritanceTests {
    let base = """
        <title>{{$title}}Default{{/title}}</title>
        <main>
        {{$main}}{{/main}}
        </main>

        """

    @Test func blocksHaveDefaultsAndOverrides() throws {
        #expect(try render("{{$title}}Default {{x}}{{/title}}", ["x": .text("<x>")]) == "Default &lt;x&gt;")
        let page = "{{<base}}\n{{$main}}\n<p>{{text}}</p>\n{{/main}}\n{{/base}}\n"
        #expect(try render(page, ["text": .text("Hi")], partials: ["base": base]) == "<title>Default</title>\n<main>\n<p>Hi</p>\n\n</main>\n")
        let titled = "{{<base}}{{$title}}Mine{{/title}}{{/base}}"
        #expect(try render(titled, partials: ["base": base]) == "<title>Mine</title>\n<main>\n\n</main>\n")
    }

    @Test func theOutermostOverrideWins() throws {
        let partials = [
            "parent": "{{<grand}}{{$a}}parent{{/a}}{{/grand}}",
            "grand": "{{$a}}grand{{/a}}|{{$b}}b{{/b}}",
        ]
        #expect(try render("{{<parent}}{{$a}}child{{/a}}{{/parent}}", partials: partials) == "child|b")
        #expect(try render("{{<parent}}{{/parent}}", partials: partials) == "parent|b")
    }

    @Test func overridesRenderInTheParentsContext() throws {
        let context: TemplateContext = ["fruit": .text("apples"), "nested": .object(["fruit": .text("bananas")])]
        let partials = ["parent": "{{#nested}}{{$block}}You say {{fruit}}.{{/block}}{{/nested}}"]
        #expect(try render("{{<parent}}{{$block}}I say {{fruit}}.{{/block}}{{/parent}}", context, partials: partials) == "I say bananas.")
    }

    @Test func blocksAreReindentedWhereTheyAreExpanded() throws {
        let parent = "Hi,\n  {{$block}}\n  {{/block}}\n"
        #expect(try render("{{<parent}}{{$block}}\n    one\n    two\n{{/block}}{{/parent}}\n", partials: ["parent": parent])
            == "Hi,\n  one\n  two\n")
        #expect(try render("Hi,\n  {{<parent}}{{/parent}}\n", partials: ["parent": "one\ntwo\n"]) == "Hi,\n  one\n  two\n")
    }

    @Test func textInsideAParentIsIgnored() throws {
        #expect(try render("{{<p}} ignored {{$a}}kept{{/a}} ignored {{/p}}", partials: ["p": "[{{$a}}{{/a}}]"]) == "[kept]")
    }

    @Test func partialNamesListPartialsAndParents() throws {
        let template = try Template("{{<base}}{{$main}}{{#x}}{{> card}}{{/x}}{{/main}}{{/base}}{{> chip}}")
        #expect(template.partialNames == ["base", "card", "chip"])
    }
}

@Suite struct TemplateErrorTests {
    @Test func unclosedSectionsSayWhichOne() {
        let error = syntaxError("<p>\n{{#items}}\n<li>\n")
        #expect(error?.message == "'items' is opened but never closed (expected {{/items}})")
        #expect(error?.line == 4)
    }

    @Test func mismatchedClosingTagsPointAtTheName() {
        let error = syntaxError("{{#a}}\n  x {{/b}}\n")
        #expect(error == TemplateSyntaxError(message: "'b' is closed here, but the open section is 'a'", line: 2, column: 8))
        #expect(syntaxError("{{/a}}")?.message == "'a' is closed here but was never opened")
    }

    @Test func unfinishedTagsAndUnsupportedFeatures() {
        #expect(syntaxError("ab {{name")?.message == "the tag is not closed with '}}'")
        #expect(syntaxError("ab {{name} x")?.column == 10)
        #expect(syntaxError("é {{{x}}")?.message == "'{{{' is not closed with '}}}'")
        #expect(syntaxError("é {{{x}}")?.column == 9)
        #expect(syntaxError("{{upper(x)}}")?.message == "function calls in tags are not supported")
        #expect(syntaxError("{{% CONTENT_TYPE: TEXT}}")?.message == "pragmas ({{% …}}) are not supported")
        #expect(syntaxError("{{<*dynamic}}{{/dynamic}}")?.message == "dynamic parent names are not supported")
        #expect(syntaxError("{{! never closed")?.message == "the comment is not closed with '}}'")
        #expect(syntaxError("{{=<% %> x}}")?.message == "a delimiter change is written like {{=<% %>=}}")
        #expect(syntaxError("{{<p}}{{x}}{{/p}}")?.message == "only {{$block}} tags may stand inside the parent '{{<p}}'")
        #expect(syntaxError("{{")?.message == "the tag is not closed with '}}'")
    }
}

/// An item of a list with a memo tells the bytes its section rendered for it, when they are its
/// own; an item kept writes them in place of its body, with the indentation they were rendered with.
@Suite struct KeptItemTests {
    private func library(_ main: String, partials: [String: String] = [:]) throws -> TemplateLibrary {
        var library = TemplateLibrary()
        library.register(try Template(main), named: "main")
        for (name, text) in partials { library.register(try Template(text), named: name) }
        return library
    }

    private func item(_ id: String, _ title: String) -> TemplateContext {
        var item: TemplateContext = ["title": .text(title)]
        item.part = .memo(id)
        return item
    }

    @Test func anItemsBytesAreToldAndWrittenBackInPlace() throws {
        let layout = "<ul>\n  {{$list}}{{/list}}\n</ul>\n"
        let main = "{{<layout}}{{$list}}\n{{#items}}\n<li>\n{{> card}}\n</li>\n{{/items}}\n{{/list}}{{/layout}}"
        let library = try library(main, partials: ["layout": layout, "card": "<b>{{.title}}</b>\n<i>{{.title}}</i>\n"])
        var parts: [String: [UInt8]] = [:]
        let made = try #require(library.render(["items": .list([item("a", "A"), item("b", "B")])], withTemplate: "main", parts: &parts))
        #expect(Set(parts.keys) == ["a", "b"])
        // The first item made again, the second written from what the render told of it.
        var again: [String: [UInt8]] = [:]
        let kept = try #require(library.render(["items": .list([item("a", "A"), TemplateContext(kept: parts["b"]![...])])], withTemplate: "main",
                                               parts: &again))
        #expect(String(decoding: kept, as: UTF8.self) == String(decoding: made, as: UTF8.self))
        #expect(Set(again.keys) == ["a"])
    }

    @Test func anItemThatLooksOutsideItselfOrIsRenderedTwiceIsNotTold() throws {
        // `{{heading}}` is not the item's: found around the list, its bytes would not follow it.
        let outside = try library("{{#items}}{{.title}} {{heading}};{{/items}}")
        var parts: [String: [UInt8]] = [:]
        _ = outside.render(["heading": .text("H"), "items": .list([item("a", "A")])], withTemplate: "main", parts: &parts)
        #expect(parts.isEmpty)
        // Nor when missing: a value around the list could appear.
        _ = outside.render(["items": .list([item("a", "A")])], withTemplate: "main", parts: &parts)
        #expect(parts.isEmpty)
        let twice = try library("{{#items}}<{{.title}}>{{/items}}{{#items}}[{{.title}}]{{/items}}")
        _ = twice.render(["items": .list([item("a", "A")])], withTemplate: "main", parts: &parts)
        #expect(parts.isEmpty)
        let own = try library("{{#items}}<{{.title}}>{{#.title}}{{.}}{{/.title}}{{/items}}")
        _ = own.render(["items": .list([item("a", "A")])], withTemplate: "main", parts: &parts)
        #expect(parts.mapValues { String(decoding: $0, as: UTF8.self) } == ["a": "<A>A"])
    }
}
