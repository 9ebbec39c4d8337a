import Foundation
@testable import PleinBuild
import PleinCore
import Testing

/// A theme cannot write text from content as markup: a member name and a report title holding
/// `<script>` come out escaped through every tag form a template can use.
@Suite(.serialized) struct EscapingTests {
    /// Every way a template can write a value, for `value` (a dotted name) and `object.field`.
    static func everyTagForm(_ object: String, _ field: String) -> String {
        """
        {{<base}}{{$main}}
        <p class="form">{{\(object).\(field)}}</p>
        <p class="form">{{{\(object).\(field)}}}</p>
        <p class="form">{{& \(object).\(field)}}</p>
        {{#\(object)}}<p class="form">{{{\(field)}}}</p><p class="form">{{&.\(field)}}</p>{{/\(object)}}
        {{#\(object).\(field)}}<p class="form">{{{.}}}</p><p class="form">{{.}}</p>{{/\(object).\(field)}}
        {{=<% %>=}}<p class="form"><%{\(object).\(field)}%></p><p class="form"><%&\(object).\(field)%></p><%={{ }}=%>
        {{#\(object)}}{{>raw-\(field)}}{{/\(object)}}
        {{/main}}{{/base}}

        """
    }

    @Test func contentTextIsEscapedThroughEveryTagForm() throws {
        let temp = TempDir()
        defer { temp.cleanup() }
        try temp.write([
            "pages/member.mustache": Self.everyTagForm("member", "name"),
            "pages/report.mustache": Self.everyTagForm("report", "title"),
            "partials/raw-name.mustache": "<p class=\"form\">{{{name}}}</p>\n",
            "partials/raw-title.mustache": "<p class=\"form\">{{{title}}}</p>\n",
        ], under: "templates")
        var options = BuildOptions.test(content: Repo.root + "/Tests/Fixtures/hostile", output: temp.path + "/public", suite: "escaping")
        options.templates = temp.path + "/templates"
        options.templatesOverBuiltInTheme = true
        let report = Pipeline.build(options)
        #expect(report.succeeded, "\(report.diagnostics.filter { $0.severity == .error })")

        let pages = [
            ("users/mallory/index.html", "Mallory &lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;"),
            ("reports/1011/2026-10-01-script-test/index.html", "Report ]]&gt; &lt;script&gt;alert(&#39;report&#39;)&lt;/script&gt;"),
        ]
        for (page, escaped) in pages {
            let html = try String(contentsOfFile: temp.path + "/public/" + page, encoding: .utf8)
            let forms = html.components(separatedBy: "<p class=\"form\">").dropFirst().map { $0.components(separatedBy: "</p>")[0] }
            #expect(forms.count == 10, "\(page): every tag form is on the page")
            for form in forms {
                #expect(form.hasPrefix(escaped), "\(page): \(form)")
                #expect(!form.contains("<"), "\(page): markup from content in \(form)")
            }
        }
    }
}
