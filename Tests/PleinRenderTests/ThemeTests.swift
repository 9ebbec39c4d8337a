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
}
