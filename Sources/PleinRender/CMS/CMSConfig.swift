import PleinCore
import PleinText

/// `admin/config.yml`: the configuration of the site's CMS (Sveltia CMS or Decap CMS), made at
/// every build from plein's own record schemas, so that what members write there is what
/// `plein check` takes: the folders and file names plein expects, its fields with their types,
/// required fields, choices, ranges and defaults, and members, groups, areas and study places
/// picked from lists of what the repository holds. It names no record: the lists are read from
/// the repository by the CMS, after a member signs in.
struct CMSConfig: Rendering {
    let inputs: RenderInputs

    /// The collections, by the name addresses into the CMS use.
    enum Collection: String, CaseIterable {
        // What members write.
        case reports, replies, albums, events, goals, checkins
        // What they pick from: hidden, read only for the lists.
        case members, groups, areas, locations

        /// The interface text naming one entry (none for the hidden lists, which show none).
        var singularKey: String? {
            switch self {
            case .reports: return "cms_report"
            case .replies: return "cms_reply"
            case .albums: return "cms_album"
            case .events: return "cms_event"
            case .goals: return "cms_goal"
            case .checkins: return "cms_checkin"
            case .members, .groups, .areas, .locations: return nil
            }
        }
    }

    /// Whether the site publishes a CMS: `cms` is set, with a repository and its forge known.
    static func isPublished(_ site: SiteConfig) -> Bool {
        guard let cms = site.cms, cms.forge != nil, let repository = site.repository else { return false }
        return RepositoryAddress(repository) != nil
    }

    func render() -> OutputFile {
        OutputFile(path: routes.cmsConfig, text: "# Written by plein build from its schemas (site.yaml: cms); edits here are lost at the next build.\n"
                   + YAMLText.document(document))
    }

    var document: JSON {
        let cms = site.cms!
        let address = RepositoryAddress(site.repository!)!
        var top: [(String, JSON)] = [("backend", backend(cms, address))]
        if cms.editorialWorkflow { top.append(("publish_mode", .string("editorial_workflow"))) }
        top += [
            ("site_url", .string(site.baseURL)),
            ("display_url", .string(site.baseURL)),
            ("locale", .string(site.language.rawValue)),
            // Uploads outside an entry's folder (the media library) go with the avatars.
            ("media_folder", .string("content/" + ContentLayout.members)),
            ("public_folder", .string("")),
            ("slug", .object([("encoding", .string("ascii")), ("clean_accents", .bool(true)), ("sanitize_replacement", .string("-"))])),
        ]
        if cms.editor == .sveltia { top.append(("output", .object([("omit_empty_optional_fields", .bool(true))]))) }
        top.append(("collections", .array(collections(cms).map(\.json))))
        return .object(top)
    }

    func backend(_ cms: CMSSettings, _ address: RepositoryAddress) -> JSON {
        var fields: [(String, JSON)] = []
        // Where the editor makes no pull requests, posts wait on a branch of their own.
        let common: [(String, JSON)] = [("repo", .string(address.path)), ("branch", .string(cms.postsBranch ?? site.repositoryBranch))]
        switch cms.forge! {
        case .github:
            fields = [("name", .string("github"))] + common
            if address.host.lowercased() != "github.com" { fields.append(("api_root", .string(address.origin + "/api/v3"))) }
            if let auth = cms.authURL { fields.append(("base_url", .string(auth.hasSuffix("/") ? String(auth.dropLast()) : auth))) }
        case .gitlab:
            fields = [("name", .string("gitlab"))] + common + [
                ("auth_type", .string("pkce")), ("api_root", .string(address.origin + "/api/v4")), ("base_url", .string(address.origin)),
            ]
            if let app = cms.appID { fields.append(("app_id", .string(app))) }
        case .gitea, .forgejo:
            // Forgejo speaks Gitea's API; both CMSs name the backend gitea.
            fields = [("name", .string("gitea"))] + common + [("api_root", .string(address.origin + "/api/v1")), ("base_url", .string(address.origin))]
            if let app = cms.appID { fields.append(("app_id", .string(app))) }
        }
        return .object(fields)
    }

    // MARK: Collections

    /// One collection: where its files are, how they are named, and the fields of its schema.
    struct Entry {
        let collection: Collection
        let head: [(String, JSON)]
        let fields: [JSON]

        var json: JSON { .object([("name", .string(collection.rawValue))] + head + [("fields", .array(fields))]) }
    }

    func collections(_ cms: CMSSettings) -> [Entry] {
        var entries: [Entry] = []
        let has = site.has
        if has(.reports) {
            entries.append(written(.reports, Schemas.report, folder: ContentLayout.reports,
                                   path: "{{fields.area}}/{{slug}}/index", slug: "{{fields.at | date('YYYY-MM-DD')}}-{{fields.title}}",
                                   placement: ["area"], media: true))
            entries.append(written(.replies, Schemas.reply, folder: ContentLayout.reports,
                                   path: "{{fields.area}}/{{fields.report}}/replies/{{slug}}", slug: "{{fields.at | date('YYYYMMDD-HHmm')}}-{{fields.author}}",
                                   placement: ["area", "report"], identifier: "author", bodyRequired: true))
        }
        if has(.groups) {
            entries.append(written(.albums, Schemas.album, folder: ContentLayout.groups,
                                   path: "{{fields.group}}/albums/{{slug}}/index", slug: "{{fields.title}}", placement: ["group"], media: true))
            entries.append(written(.events, Schemas.event, folder: ContentLayout.groups,
                                   path: "{{fields.group}}/events/{{slug}}", slug: "{{fields.title}}", placement: ["group"]))
            entries.append(written(.goals, Schemas.goal, folder: ContentLayout.groups,
                                   path: "{{fields.group}}/goals/{{slug}}", slug: "{{fields.title}}", placement: ["group"]))
        }
        if has(.study), cms.editor.editsTopLevelLists {
            // A member's check-ins are one YAML file whose top level is the list of them.
            guard case .list(let element) = Schemas.checkins.root else { fatalError("check-ins are a list") }
            let list: JSON = .object([
                ("name", .string("checkins")), ("label", .string(strings["cms_checkins"])), ("widget", .string("list")), ("root", .bool(true)),
                ("required", .bool(true)), ("summary", .string("{{fields.location}}: {{fields.in}}")),
                ("fields", .array(fields(of: element, kind: Schemas.checkins.kind))),
            ])
            entries.append(Entry(collection: .checkins, head: labels(.checkins) + [
                ("folder", .string("content/" + ContentLayout.checkIns)), ("format", .string("yaml")), ("extension", .string("yaml")),
                ("create", .bool(true)), ("delete", .bool(false)),
                // The file's name is the member's id, typed once for a new file.
                ("slug", .string("{{fields._slug}}")),
            ], fields: [list]))
        }
        // The lists members pick from: read from the repository, never shown as collections.
        entries.append(lookup(.members, folder: ContentLayout.members, path: nil, format: nil))
        if cms.editor == .sveltia {
            if has(.groups) { entries.append(lookup(.groups, folder: ContentLayout.groups, path: "{{slug}}/index", format: nil)) }
            if has(.reports) { entries.append(lookup(.areas, folder: ContentLayout.reports, path: "{{slug}}/area", format: "yaml")) }
        }
        if has(.study) { entries.append(lookup(.locations, folder: ContentLayout.locations, path: nil, format: nil)) }
        return entries
    }

    /// The collection's name in the site's language, and one entry's.
    func labels(_ collection: Collection) -> [(String, JSON)] {
        [("label", .string(strings["cms_" + collection.rawValue]))]
            + (collection.singularKey.map { [("label_singular", .string(strings[$0]))] } ?? [])
    }

    /// A collection of Markdown records members write, in `folder` at `path`, named by `slug`,
    /// with the placement fields first (required: the CMS builds the file's path from them).
    func written(_ collection: Collection, _ schema: RecordSchema, folder: String, path: String, slug: String, placement: [String],
                 media: Bool = false, identifier: String? = nil, bodyRequired: Bool = false) -> Entry {
        guard case .object(let schemaFields) = schema.root else { fatalError("\(schema.kind) is an object") }
        var head = labels(collection) + [
            ("folder", .string("content/" + folder)), ("path", .string(path)), ("slug", .string(slug)),
            ("extension", .string("md")), ("format", .string("frontmatter")), ("create", .bool(true)),
        ]
        if let identifier { head.append(("identifier_field", .string(identifier))) }
        // Photos and files beside the entry's index.md: a report's `![](photo.jpg)`, an album's photos.
        if media { head += [("media_folder", .string("")), ("public_folder", .string(""))] }
        let first = placement.compactMap { name in schemaFields.first { $0.name == name } }
        let rest = schemaFields.filter { !placement.contains($0.name) }
        var fields = first.map { self.field($0, kind: schema.kind, required: true) } + rest.map { self.field($0, kind: schema.kind) }
        fields.append(.object([
            ("name", .string("body")), ("label", .string("Text")), ("widget", .string("markdown")), ("required", .bool(bodyRequired)),
        ]))
        return Entry(collection: collection, head: head, fields: fields)
    }

    /// A hidden collection whose entries are the choices of a list: their id and name.
    func lookup(_ collection: Collection, folder: String, path: String?, format: String?) -> Entry {
        var head = labels(collection) + [("folder", .string("content/" + folder))]
        if let path { head.append(("path", .string(path))) }
        if let format { head += [("format", .string(format)), ("extension", .string(format))] } else { head.append(("extension", .string("md"))) }
        head += [("hide", .bool(true)), ("create", .bool(false)), ("delete", .bool(false)), ("identifier_field", .string("name"))]
        return Entry(collection: collection, head: head, fields: [
            .object([("name", .string("name")), ("label", .string("Name")), ("widget", .string("string")), ("required", .bool(false))]),
        ])
    }

    // MARK: Fields

    /// Fields that hold a day, not a moment: a date picker without a time.
    static let dateOnly: Set<String> = ["joined", "left", "added", "date"]

    func fields(of type: FieldType, kind: String) -> [JSON] {
        guard case .object(let fields) = type else { return [] }
        return fields.map { field($0, kind: kind) }
    }

    /// A schema field as a CMS field: the widget for its type, with the schema's sentence as the
    /// hint. `required` overrides the schema's (placement fields, optional to plein, are required
    /// here: the file's path is made from them).
    func field(_ f: Field, kind: String, required: Bool? = nil) -> JSON {
        var out: [(String, JSON)] = [("name", .string(f.name)), ("label", .string(Self.label(f.name)))]
        out += widget(f, kind: kind)
        out.append(("required", .bool(required ?? f.required)))
        out.append(("hint", .string(f.summary)))
        return .object(out)
    }

    static func label(_ name: String) -> String {
        let words = name.split(separator: "_").joined(separator: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    func widget(_ f: Field, kind: String) -> [(String, JSON)] {
        // Fields whose choices are records of the repository. A group or an area is a folder
        // (groups/<id>/index.md, reports/<id>/area.yaml): Sveltia CMS gives such an entry's id
        // as its slug; Decap CMS gives "<id>/index" or the file's whole folder, so there the id
        // is typed, and checked as plein checks ids.
        let folders = site.cms?.editor != .decap
        switch (kind, f.name) {
        case ("report", "area") where folders: return relation(.areas)
        case (_, "group") where folders: return relation(.groups)
        case ("checkins", "location"): return relation(.locations)
        case ("report", "category"):
            return [("widget", .string("select")), ("options", .array(site.categories.map { category in
                .object([("label", .string(strings["category_\(category.rawValue)"])), ("value", .string(category.rawValue))])
            }))]
        default: break
        }
        return widget(f.type, name: f.name)
    }

    func widget(_ type: FieldType, name: String) -> [(String, JSON)] {
        switch type {
        case .string, .timeZone, .placeOrCoordinate:
            return [("widget", .string("string"))]
        case .slug:
            return pattern("^[a-z0-9]+(-[a-z0-9]+)*$", "lowercase letters, digits and -")
        case .email:
            return pattern("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", "an e-mail address")
        case .url:
            return pattern("^https?://", "an address starting with https://")
        case .memberRef:
            return relation(.members)
        case .integer(let min, let max):
            var w: [(String, JSON)] = [("widget", .string("number")), ("value_type", .string("int"))]
            if let min { w.append(("min", .int(min))) }
            if let max { w.append(("max", .int(max))) }
            return w
        case .number(let min, let max):
            return [("widget", .string("number")), ("value_type", .string("float")), ("min", .number(min)), ("max", .number(max)), ("step", .number(0.00001))]
        case .boolean:
            return [("widget", .string("boolean"))]
        case .moment:
            if Self.dateOnly.contains(name) {
                return [("widget", .string("datetime")), ("format", .string("YYYY-MM-DD")), ("date_format", .string("YYYY-MM-DD")), ("time_format", .bool(false))]
            }
            // With the member's UTC offset, as plein wants it; a new entry starts at now.
            var w: [(String, JSON)] = [("widget", .string("datetime")), ("format", .string("YYYY-MM-DDTHH:mm:ssZ"))]
            if ["at", "in"].contains(name) { w.append(("default", .string("{{now}}"))) }
            return w
        case .choice(let choices):
            return [("widget", .string("select")), ("options", .array(choices.map { .string($0) }))]
        case .coordinate:
            return [("widget", .string("object")), ("fields", .array(Schemas.coordinateFields.map { field($0, kind: "coordinate") }))]
        case .fileName:
            return [("widget", .string("image")), ("choose_url", .bool(false))]
        case .openingHours, .textMap:
            return [("widget", .string("code")), ("output_code_only", .bool(true))]
        case .list(.memberRef):
            return relation(.members) + [("multiple", .bool(true))]
        case .list(.object(let fields)):
            return [("widget", .string("list")), ("fields", .array(fields.map { field($0, kind: "item") }))]
        case .list(.coordinate):
            return [("widget", .string("list")), ("fields", .array(Schemas.coordinateFields.map { field($0, kind: "coordinate") }))]
        case .list(let element):
            return [("widget", .string("list")), ("field", field(Field("item", element, required: true, ""), kind: "item"))]
        case .object(let fields):
            return [("widget", .string("object")), ("fields", .array(fields.map { field($0, kind: "object") }))]
        }
    }

    func pattern(_ regex: String, _ says: String) -> [(String, JSON)] {
        [("widget", .string("string")), ("pattern", .array([.string(regex), .string("Expected " + says)]))]
    }

    /// A pick from the entries of a lookup collection, by id, shown by name.
    func relation(_ collection: Collection) -> [(String, JSON)] {
        [
            ("widget", .string("relation")), ("collection", .string(collection.rawValue)), ("value_field", .string("{{slug}}")),
            ("search_fields", .array([.string("name")])), ("display_fields", .array([.string("name")])),
        ]
    }
}

/// `admin/index.html`: the CMS's page, which loads its pinned script (checked against the
/// owner's integrity hash when site.yaml gives one) and finds `config.yml` beside it.
struct CMSPage: Rendering {
    let inputs: RenderInputs

    func render() -> OutputFile {
        // (Only a site with `cms` has this output; without it, a page that says what it needs.)
        let title = strings.format("cms_title", ["site": site.title])
        var page = MarkupWriter(capacity: 768)
        page.append(literal: "<!doctype html>\n")
        page.open("html", .init("lang", site.language.rawValue))
        page.append(literal: "\n<head>\n")
        page.empty("meta", .init("charset", "utf-8"), void: true)
        page.append(literal: "\n")
        page.empty("meta", .init("name", "viewport"), .init("content", "width=device-width, initial-scale=1"), void: true)
        page.append(literal: "\n")
        page.empty("meta", .init("name", "robots"), .init("content", "noindex, nofollow"), void: true)
        page.append(literal: "\n")
        page.empty("meta", .init("name", "referrer"), .init("content", "same-origin"), void: true)
        page.append(literal: "\n")
        page.element("title", text: title)
        page.append(literal: "\n</head>\n<body>\n")
        page.element("noscript", text: strings["cms_needs_script"])
        page.append(literal: "\n")
        if let cms = site.cms {
            var script: [MarkupWriter.Attribute] = [.init("src", cms.editor.scriptURL(version: cms.version))]
            if let integrity = cms.integrity { script += [.init("integrity", integrity), .init("crossorigin", "anonymous")] }
            page.open("script", attributes: script)
            page.close("script")
            page.append(literal: "\n")
        }
        page.append(literal: "</body>\n")
        page.close("html")
        page.append(literal: "\n")
        return OutputFile(path: routes.cmsPage + "index.html", bytes: page.bytes)
    }
}
