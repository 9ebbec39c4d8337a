import PleinText
import Foundation
public import PleinCore
import PleinTheme

extension Scaffold {
    /// Starts an empty community in `folder`: `content/` with the site's settings, the editor
    /// schemas, a `.gitignore` for the output and the cache, and a README. Returns the files
    /// written. The theme is plein's own until `plein new theme` copies it in.
    public static func site(at folder: String, title: String, baseURL: String, language: Language, timezone: String,
                            sections: Set<SiteSection> = Set(SiteSection.allCases),
                            categories: [Category] = Category.allCases,
                            profile: [ProfilePart] = ProfilePart.allCases, repository: String? = nil) throws(Failure) -> [String] {
        let fm = FileManager.default
        if fm.fileExists(atPath: folder + "/content/site.yaml") || fm.fileExists(atPath: folder + "/site.yaml") {
            throw Failure("\(folder) already holds a site")
        }
        if let repository, RepositoryAddress(repository) == nil {
            throw Failure("'\(repository)' is not a repository's address: expected https://<forge>/<owner>/<name>")
        }
        var written: [String] = []
        func write(_ relative: String, _ text: String) throws(Failure) {
            written.append(try writeNew(folder + "/" + relative, Array(text.utf8)))
        }
        // What the kind of community chose, where it is not plein's default.
        func list<Item: RawRepresentable>(_ key: String, _ items: [Item]) -> String where Item.RawValue == String {
            "\(key): [" + items.map(\.rawValue).joined(separator: ", ") + "]\n"
        }
        var kindSettings = sections == Set(SiteSection.allCases) ? "" : list("sections", sections.sorted())
        if categories != Category.allCases, sections.contains(.reports) { kindSettings += list("categories", categories) }
        if profile != ProfilePart.allCases { kindSettings += list("profile", profile) }
        try write("content/site.yaml", """
            # yaml-language-server: $schema=../.plein/schemas/site.json
            title: \(quote(title))
            base_url: \(baseURL)
            language: \(language.rawValue)
            timezone: \(timezone)
            \(repository.map { "repository: \($0)\n" } ?? "")\(kindSettings)privacy:
              location_precision_km: 1
            feeds:
              limit: 50

            """)
        try write("content/places.yaml", """
            # yaml-language-server: $schema=../.plein/schemas/places.json
            # Named places members can give as their home, and the divers search offers:
            # \(language == .nl ? "- {name: Zandvoort, lat: 52.3713, lon: 4.5331}" : "- {name: Harbour, lat: 50.8957, lon: -1.4043}")
            []

            """)
        // The folders of the parts the site has (a diving club gets no study places or
        // check-ins); `sections` in site.yaml and a folder of its own turn one on later.
        var folders: [String] = [ContentLayout.members, ContentLayout.pages]
        if sections.contains(.groups) { folders.append(ContentLayout.groups) }
        if sections.contains(.reports) { folders.append(ContentLayout.reports) }
        if sections.contains(.study) { folders += [ContentLayout.locations, ContentLayout.checkIns] }
        if sections.contains(.members) { folders.append(ContentLayout.threads) }
        for folder in folders {
            try write("content/\(folder)/.keep", "")
        }
        for schema in Schemas.all {
            try write(".plein/schemas/\(schema.kind).json", JSONSchemaWriter.schema(schema).serialized(pretty: true) + "\n")
        }
        let mappings = Schemas.all.compactMap { schema -> String? in
            guard schema.format == .yaml, let globs = JSONSchemaWriter.globs[schema.kind] else { return nil }
            return "    \"./.plein/schemas/\(schema.kind).json\": [\(globs.map { "\"content/\($0)\"" }.joined(separator: ", "))]"
        }
        try write(".vscode/settings.json", "{\n  \"yaml.schemas\": {\n" + mappings.joined(separator: ",\n") + "\n  }\n}\n")
        try write(".vscode/tasks.json", editorTasks)
        try write(".vscode/extensions.json", "{\n  \"recommendations\": [\"redhat.vscode-yaml\"]\n}\n")
        try write(".gitignore", """
            # What plein makes: the site, the one before it, and derived images.
            /public/
            /.public.plein-*
            /.plein-cache/

            """)
        try write("README.md", """
            # \(title)

            This folder holds the records of the community: every member, group, album, goal,
            report, study place, check-in and message is a small Markdown or YAML file in
            `content/`. Edit them, then run `plein build` (the site appears in `public/`), or
            `plein serve` to see changes as you save. Both work from anywhere in this folder.

            - `content/site.yaml`: the site's settings.
            - `content/places.yaml`: named places with coordinates.
            - `content/users/<member>.md`, `content/groups/<group>/index.md`,
              `content/reports/<area>/<date>-<slug>.md`, `content/locations/<place>.md`,
              `content/checkins/<member>.yaml`, `content/threads/<thread>/`.
            - `content/pages/<page>.md`: pages of your own (How to join, Contact), in the menu.

            `plein new member|group|album|goal|event|report|reply|location|checkin|message|page` writes a new
            file in the right place; `plein check` tells you, file and line, what is wrong.

            The site looks as plein's built-in theme makes it. To change that, `plein new theme`
            copies the theme into `templates/`; edit what you like there and delete the rest
            (a file you delete is taken from the built-in theme again).

            Editors that speak yaml-language-server (VS Code with the YAML extension, and others)
            check the YAML files as you type with the schemas in `.plein/schemas/`. In VS Code,
            the task "plein serve" (Terminal → Run Task; it starts by itself once you allow this
            folder's automatic tasks) shows the site and marks every problem in every file,
            Markdown included, each time you save; "plein check" does it once.

            plein's documentation comes with it: `plein help content` (every file and field),
            `plein help publishing` (CI, Pages, what a public repository shows),
            `plein help members-without-git` (the CMS and issue forms) and `plein help encryption`
            (members-only groups and message threads).

            """)
        return written
    }

    /// Kinds of community `plein new site` offers, with the sections and report categories each
    /// starts with (`sections` and `categories` in site.yaml turn others on).
    public static let kinds: [(name: String, sections: [SiteSection], categories: [Category], profile: [ProfilePart])] = [
        ("a neighbourhood (members, groups, reports)", [.members, .groups, .reports], Category.allCases, [.friends, .follows]),
        ("a diving club (members, divers, groups, reports)", [.members, .divers, .groups, .reports], [.attention, .event, .message], []),
        ("a study group (members, groups, study places, who is where)", [.members, .groups, .study, .now], Category.allCases, [.friends, .points]),
        ("everything plein has", SiteSection.allCases, Category.allCases, ProfilePart.allCases),
    ]

    /// Copies plein's built-in theme into `folder` (a site's `templates/`) to start changing it:
    /// files already there are kept. Returns the files written.
    public static func theme(into folder: String) throws(Failure) -> [String] {
        var written: [String] = []
        for path in BuiltInTheme.paths where !FileManager.default.fileExists(atPath: folder + "/" + path) {
            written.append(try writeNew(folder + "/" + path, BuiltInTheme.files[path] ?? []))
        }
        return written
    }

    /// Writes a file that does not exist yet, with its folders.
    static func writeNew(_ path: String, _ bytes: [UInt8]) throws(Failure) -> String {
        let fm = FileManager.default
        guard !fm.fileExists(atPath: path) else { throw Failure("\(path) already exists; plein new never overwrites") }
        do {
            try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        } catch {
            throw Failure("cannot write \(path): \(error.localizedDescription)")
        }
        return path
    }
}
