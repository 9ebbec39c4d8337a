import PleinBuild
import Foundation
import PleinCore
import PleinRender
import Testing

@Suite struct ThemeTests {
    static let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("templates").path

    /// The default theme's files, with some replaced.
    func theme(replacing replacements: [String: String]) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: Self.templates)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = Self.templates + "/" + path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = Array(try Data(contentsOf: URL(fileURLWithPath: full)))
            }
        }
        for (path, text) in replacements { files[path] = Array(text.utf8) }
        return files
    }

    @Test func theDefaultThemeLoadsClean() throws {
        let (theme, diagnostics) = ThemeLoader.load(.memory(try theme(replacing: [:]), displayRoot: "templates"), language: .nl)
        #expect(theme != nil)
        #expect(diagnostics.isEmpty)
        #expect(theme?.closure(of: "report") == ["report", "base", "category-badge", "author-chip", "member-chip", "time", "map", "event-time"])
    }

    /// A template that names a partial by a value may use any template, so an edit of any of
    /// them must render it again: its closure is every template.
    @Test func aDynamicPartialUsesEveryTemplate() throws {
        let report = try String(contentsOfFile: Self.templates + "/pages/report.mustache", encoding: .utf8)
        let files = try theme(replacing: ["pages/report.mustache": report.replacingOccurrences(of: "{{$main}}", with: "{{$main}}{{>*extra}}")])
        let (loaded, diagnostics) = ThemeLoader.load(.memory(files, displayRoot: "templates"), language: .nl)
        let theme = try #require(loaded, "\(diagnostics)")
        #expect(theme.closure(of: "report") == Set(theme.templates.keys))
        #expect(theme.closure(of: "area").contains("base") && !theme.closure(of: "area").contains("report"))
    }

    /// A theme without one of the templates the outputs are rendered with is an error naming
    /// the file it expected, never an empty page: event, events and search were once left out.
    @Test func aMissingTemplateIsAnErrorNamingItsFile() throws {
        #expect(Set(Theme.requiredTemplates.map(\.name)).isSuperset(of: ["base", "event", "events", "search", "report", "not-found"]))
        for (name, file) in Theme.requiredTemplates {
            var files = try theme(replacing: [:])
            #expect(files.removeValue(forKey: file) != nil, "the default theme has no \(file)")
            let (theme, diagnostics) = ThemeLoader.load(.memory(files, displayRoot: "templates"), language: .nl)
            #expect(theme == nil)
            #expect(diagnostics.map { "\($0.file): \($0.message)" } == ["templates/\(file): the theme has no template '\(name)'"])
        }
    }

    @Test func aBrokenTemplateIsReportedWithItsPlace() throws {
        let broken = "{{<base}}\n{{$main}}\n<h1>{{title}</h1>\n{{/main}}\n{{/base}}\n"
        let files = try theme(replacing: ["pages/report.mustache": broken, "partials/time.mustache": "{{#at}}\n"])
        let (theme, diagnostics) = ThemeLoader.load(.memory(files, displayRoot: "templates"), language: .nl)
        #expect(theme == nil)
        #expect(diagnostics.map { "\($0.file):\($0.span.line):\($0.span.column): \($0.message)" } == [
            "templates/pages/report.mustache:3:12: template syntax: the tag is not closed with '}}'",
            "templates/partials/time.mustache:2:1: template syntax: 'at' is opened but never closed (expected {{/at}})",
        ])
    }

    /// A text a template names and the table lacks is an error at its place: its line, and its
    /// column in characters (a line with letters of more than one byte before it included).
    @Test func aMissingTextIsReportedWithItsPlace() throws {
        let page = "{{<base}}\n{{$main}}\n<p>Één — {{t.nowhere_1}} (t.not_a_key) {{#t.also_missing}}x{{/t.also_missing}}</p>\nt.start\n{{/main}}\n{{/base}}\n"
        let files = try theme(replacing: ["pages/page.mustache": page])
        let (theme, diagnostics) = ThemeLoader.load(.memory(files, displayRoot: "templates"), language: .nl)
        #expect(theme == nil)
        #expect(diagnostics.map { "\($0.file):\($0.span.line):\($0.span.column):\($0.span.length)" } == [
            "templates/pages/page.mustache:3:12:11", "templates/pages/page.mustache:3:27:11", "templates/pages/page.mustache:3:43:14",
        ])
    }

    /// A theme loaded again over the last one (`plein serve` after an edit of the theme) takes
    /// what did not change from it and reads what did: a template's new text, broken or not.
    @Test func aThemeLoadedAgainReadsWhatChanged() throws {
        let files = try theme(replacing: [:])
        let previous = try #require(ThemeLoader.load(.memory(files, displayRoot: "templates"), language: .nl).0)
        let report = try String(contentsOfFile: Self.templates + "/pages/report.mustache", encoding: .utf8)
        let edited = try theme(replacing: ["pages/report.mustache": report.replacingOccurrences(of: "{{$main}}", with: "{{$main}}{{>*extra}}")])
        let again = try #require(ThemeLoader.load(.memory(edited, displayRoot: "templates"), language: .nl, reusing: previous).0)
        #expect(again.closure(of: "report") == Set(again.templates.keys))
        #expect(again.closure(of: "area") == previous.closure(of: "area"))
        #expect(again.strings.table == previous.strings.table)
        let broken = try theme(replacing: ["pages/report.mustache": "{{#at}}\n", "i18n/nl.yaml": "- a list\n"])
        let (none, problems) = ThemeLoader.load(.memory(broken, displayRoot: "templates"), language: .nl, reusing: previous)
        #expect(none == nil)
        #expect(Set(problems.map(\.file)).isSuperset(of: ["templates/pages/report.mustache", "templates/i18n/nl.yaml"]))
    }
}
