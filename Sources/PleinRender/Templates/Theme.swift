import PleinMarkdown
import Foundation
public import PleinMustache
public import PleinCore
import PleinModel

/// The templates, interface text and assets of a theme folder (`templates/`).
public struct Theme: Sendable {
    public let library: TemplateLibrary
    public let strings: Strings
    /// Asset paths as written in `templates/assets/` → their published path with a content hash.
    public let assets: [String: Asset]
    /// Template texts by display path, for showing template errors.
    public let sources: [String: String]
    /// Template texts by template name.
    public let templates: [String: String]

    /// The theme with the site's own interface texts (`site.yaml` `labels`) in place of its own.
    public func labelled(_ labels: [String: String]) -> Theme {
        guard !labels.isEmpty else { return self }
        let table = strings.table.merging(labels) { _, site in site }
        return Theme(library: library, strings: Strings(language: strings.language, table: table), assets: assets, sources: sources,
                     templates: templates)
    }

    /// The theme with more assets (the app's icons, which the build makes: `AppIcons`).
    public func adding(assets more: [String: Asset]) -> Theme {
        Theme(library: library, strings: strings, assets: assets.merging(more) { _, new in new }, sources: sources, templates: templates)
    }

    /// The templates a template uses, itself included: its partials and parents, transitively.
    /// A template that names a partial by a value (`{{>*name}}`) may use any of them.
    public func closure(of name: String) -> Set<String> {
        var seen: Set<String> = []
        var queue = [name]
        while let next = queue.popLast() {
            guard seen.insert(next).inserted, templates[next] != nil else { continue }
            guard let template = library.template(named: next) else { continue }
            if template.hasDynamicPartial { return seen.union(templates.keys) }
            queue += template.partialNames
        }
        return seen
    }

    public struct Asset: Sendable {
        /// Relative to the output root: `assets/style.3f2a1b9c0d.css`.
        public let output: String
        public let bytes: [UInt8]

        public init(output: String, bytes: [UInt8]) {
            self.output = output
            self.bytes = bytes
        }
    }

    public init(library: TemplateLibrary, strings: Strings, assets: [String: Asset], sources: [String: String], templates: [String: String]) {
        self.library = library
        self.strings = strings
        self.assets = assets
        self.sources = sources
        self.templates = templates
    }

    /// The published path of an asset (`style.css` → `assets/style.<hash>.css`).
    public func asset(_ name: String) -> String { assets[name]?.output ?? Routes.asset(name) }

    /// Every template a page renderer may ask for, with the theme file expected to hold it: the
    /// layout every page extends, and the template of each kind of output (`OutputID.Kind`).
    public static let requiredTemplates: [(name: String, file: String)] = [("base", "layouts/base.mustache")]
        + OutputID.Kind.allCases.compactMap(\.template).map { ($0, "pages/\($0).mustache") }
        // A members-only group's page in the open: the form that unlocks it (`SealedPage`).
        + [("sealed", "pages/sealed.mustache")]
}
