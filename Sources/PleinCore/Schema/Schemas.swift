/// Every kind of content file and the fields it may hold (PRODUCT.md, "Content format").
public enum Schemas {
    public static let coordinateFields = [
        Field("lat", .number(min: -90, max: 90), required: true, "Latitude in degrees, -90 to 90."),
        Field("lon", .number(min: -180, max: 180), required: true, "Longitude in degrees, -180 to 180."),
    ]

    public static let site = RecordSchema(kind: "site", format: .yaml, root: .object([
        Field("title", .string, required: true, "The site's name, shown in every page title and feed."),
        Field("base_url", .url, required: true, "The absolute URL the site is published at, used in feeds, the sitemap and link previews."),
        Field("language", .choice(["nl", "en"]), "Interface language: nl or en (default en)."),
        Field("timezone", .timeZone, "IANA time zone for dates alone and for showing times (default UTC)."),
        Field("description", .string, "One sentence about the site, for search engines and feeds."),
        Field("repository", .url, "URL of the content repository on GitHub or GitLab: enables edit links."),
        Field("repository_branch", .string, "The repository's branch that edit and new-file links open (default main)."),
        Field("repository_private", .boolean, "true when the content repository is private: plein check then no longer warns that members-only and private groups and message threads are plain text in it."),
        Field("sections", .list(.choice(SiteSection.allCases.map(\.rawValue))),
              "The parts of the site: members, divers, groups, reports, study, now (default all of them)."),
        Field("categories", .list(.choice(categories)),
              "The report categories members may use: suspicious, attention, event, complaint, message (default all of them)."),
        Field("profile", .list(.choice(ProfilePart.allCases.map(\.rawValue))),
              "The parts of a member's page beyond their own records: friends, points (per group) and follows (followed reports) (default all three)."),
        Field("search", .boolean, "Whether the site has a search page and index (default true; needs Pagefind, which `make site` installs)."),
        Field("labels", .textMap, "The site's own interface texts, by key (see the theme's i18n files), e.g. nav_reports: Dive sites."),
        Field("privacy", .object([
            Field("location_precision_km", .number(min: 0.1, max: 100), "Members' homes and photos' positions are rounded to a grid of this many kilometres (default 1); photos taken this close to a home are on no map."),
        ]), "Privacy settings."),
        Field("feeds", .object([
            Field("limit", .integer(min: 1, max: 10_000), "At most this many entries per feed (default 50)."),
        ]), "Feed settings."),
        Field("map", .object([
            Field("tiles", .string, "Tile URL template for interactive maps, with {z}, {x} and {y}."),
            Field("attribution", .string, "Attribution text for the map tiles."),
        ]), "Map settings."),
        Field("images", .object([
            Field("max_pixels", .integer(min: 1), "Images with more pixels than this are refused (default 100 million)."),
            Field("avif", .boolean, "Whether photos get AVIF copies beside WebP: smaller files for browsers that show AVIF (default true)."),
        ]), "Image settings."),
        Field("cms", .object([
            Field("editor", .choice(CMSSettings.Editor.allCases.map(\.rawValue)), "The CMS: sveltia (the default: made for phones) or decap."),
            Field("version", .string, "The CMS version the page loads, exactly (default: the one plein is made for)."),
            Field("integrity", .string, "The script's Subresource Integrity hash, sha384-… (`plein help members-without-git` says how to compute it)."),
            Field("forge", .choice(CMSSettings.Forge.allCases.map(\.rawValue)), "Where the repository is: github, gitlab, gitea or forgejo (default: from the repository's address)."),
            Field("app_id", .string, "The id of the OAuth application members sign in with (GitLab, Gitea, Forgejo)."),
            Field("auth_url", .url, "GitHub: the address of the OAuth client that signs members in; without it, members sign in with a token."),
            Field("review", .boolean, "Whether members' posts wait for a maintainer (default true): each a pull or merge request on GitHub and GitLab, or on the branch posts_branch on Gitea and Forgejo, whose CMS makes no pull requests."),
            Field("posts_branch", .string, "Gitea and Forgejo, with review: the branch the CMS commits members' posts to, merged by a maintainer (default cms-posts)."),
        ]), "A CMS at /admin/ for members who do not use git; needs 'repository'."),
        Field("app", .object([
            Field("enabled", .boolean, "Whether members can install the site as an app and read it offline: a web app manifest, icons and a service worker (default true)."),
            Field("short_name", .string, "The name under the icon on a phone's home screen (default: the title)."),
            Field("icon", .string, "The app's icon: a file in the site's templates/assets/ (PNG, JPEG, WebP or SVG; square, at least 512 pixels wide). Default: the theme's icon.svg."),
            Field("theme_color", .string, "The colour of the app's title bar, #rrggbb (default: the theme's accent colour)."),
            Field("background_color", .string, "The colour of the app's splash screen, #rrggbb (default: the theme's background)."),
            Field("offline_reports", .integer(min: 0, max: 100), "How many of the newest reports a visitor's phone keeps readable offline from their first visit (default 10)."),
            Field("offline_events", .integer(min: 0, max: 100), "How many upcoming events it keeps readable offline (default 10)."),
        ]), "The site as an app on members' phones: installable and readable offline."),
        Field("websub", .object([
            Field("hub", .url, required: true, "The WebSub hub that every Atom feed names and that the CI tells of changed feeds after a deploy, e.g. https://pubsubhubbub.appspot.com/."),
        ]), "Feed readers told at once of new entries (WebSub)."),
    ]), summary: "Site settings: content/site.yaml")

    public static let places = RecordSchema(kind: "places", format: .yaml, root: .list(.object([
        Field("name", .string, required: true, "The place's name, as members write it in 'home'."),
        Field("lat", .number(min: -90, max: 90), required: true, "Latitude in degrees."),
        Field("lon", .number(min: -180, max: 180), required: true, "Longitude in degrees."),
        Field("postcode", .string, "Postcode area of the place."),
    ])), summary: "The gazetteer: content/places.yaml")

    public static let member = RecordSchema(kind: "member", format: .frontMatter, root: .object([
        Field("name", .string, required: true, "The member's name as shown on the site."),
        Field("email", .email, "E-mail address (optional): unique, may name the member in groups and goals, never published; anyone who can read the repository reads it."),
        Field("avatar", .fileName, "A .jpg, .png or .webp file beside this one."),
        Field("joined", .moment, "The date the member joined."),
        Field("left", .moment, "The date the member left: their page and what they posted stay; they leave the member list, the divers, the groups' member lists and the leaderboards, and references to them are no error."),
        Field("home", .placeOrCoordinate, "A place from places.yaml or {lat, lon}; published only coarsened."),
        Field("postcode", .string, "The member's postcode area."),
        Field("diving", .object([
            Field("certification", .string, "Highest diving certification, e.g. PADI Advanced Open Water."),
            Field("years", .integer(min: 0, max: 100), "Years of diving experience."),
            Field("dives", .integer(min: 0), "Number of logged dives."),
        ]), "The diving card, for divers."),
        Field("follows", .list(.string), "Reports the member follows, as <area>/<date>-<slug>."),
        Field("friends", .list(.memberRef), "Other members, by id."),
        Field("github", .string, "The member's GitHub account, their login without @: an issue they open with the site's issue forms is posted as theirs, so the forms ask no member id. Not published."),
    ]), summary: "A member: content/users/<member>.md")

    public static let group = RecordSchema(kind: "group", format: .frontMatter, root: .object([
        Field("name", .string, required: true, "The group's name, unique across the site."),
        Field("members", .list(.memberRef), required: true, "Members by id or e-mail address."),
        Field("created_by", .memberRef, "The member who started the group."),
        Field(
            "visibility", .choice(["public", "unlisted", "members", "private"]),
            "public (default), unlisted (not listed anywhere), members (published encrypted, for those with the group's passphrase) or private (never published)."
        ),
    ]), summary: "A group: content/groups/<group>/index.md")

    public static let album = RecordSchema(kind: "album", format: .frontMatter, root: .object([
        Field("title", .string, required: true, "The album's title."),
        Field("date", .moment, "When the photos were taken."),
        Field("cover", .fileName, "The photo shown for the album."),
        Field("map", .choice(["coarse", "exact", "none"]),
              "Where the album's map puts its photos: on the site's privacy grid (coarse, the default), where they were taken (exact, for a dive site) or nowhere (none). Photos taken near a member's home are never on it."),
        Field("by", .memberRef, "The member of the group who made the album; credited in feeds."),
        Field("photos", .list(.object([
            Field("file", .fileName, required: true, "A photo file in the album's folder."),
            Field("caption", .string, "What the photo shows; also its alt text."),
            Field("by", .memberRef, "The member who took it."),
        ])), "Order and captions of the photos; photos left out follow in capture-time order."),
        Field("group", .slug, Placement.summary("group")),
    ]), summary: "An album: content/groups/<group>/albums/<album>/index.md")

    public static let goal = RecordSchema(kind: "goal", format: .frontMatter, root: .object([
        Field("title", .string, required: true, "What is to be done."),
        Field("points", .integer(min: 1), required: true, "Points earned by completing it: a positive whole number."),
        Field("added_by", .memberRef, "The member of the group who added it."),
        Field("added", .moment, "When it was added."),
        Field("completed_by", .memberRef, "The member of the group who completed it first."),
        Field("completed_at", .moment, "When it was completed."),
        Field("target", .integer(min: 1), "For a goal the group reaches together (100 club dives this season): the total to reach."),
        Field("unit", .string, "What the tally counts, e.g. dives."),
        Field("tally", .list(.object([
            Field("by", .memberRef, required: true, "The member of the group who contributed."),
            Field("count", .integer(min: 1), required: true, "How many they added."),
            Field("at", .moment, "When."),
        ])), "The contributions towards 'target', each member's, adding up."),
        Field("group", .slug, Placement.summary("group")),
    ]), summary: "A goal: content/groups/<group>/goals/<goal>.md")

    public static let event = RecordSchema(kind: "event", format: .frontMatter, root: .object([
        Field("title", .string, required: true, "What happens: a dive trip, a study session."),
        Field("starts", .moment, required: true, "When it starts, with a UTC offset (a date alone for an all-day event)."),
        Field("ends", .moment, "When it ends (a date alone: the last day)."),
        Field("place", .string, "Where it is: a name of places.yaml or any text."),
        Field("by", .memberRef, "The member of the group who organises it."),
        Field("group", .slug, Placement.summary("group")),
    ]), summary: "A group's event: content/groups/<group>/events/<event>.md")

    public static let area = RecordSchema(kind: "area", format: .yaml, root: .object([
        Field("name", .string, "The area's name, e.g. Dapperbuurt."),
        Field("center", .coordinate, "The middle of the area."),
        Field("boundary", .list(.coordinate), "The area's outline, each point once, the first not repeated."),
    ]), summary: "A postcode area: content/reports/<area>/area.yaml")

    public static let categories = ["suspicious", "attention", "event", "complaint", "message"]

    public static let report = RecordSchema(kind: "report", format: .frontMatter, root: .object([
        Field("title", .string, required: true, "A short title."),
        Field("category", .choice(categories), required: true, "suspicious, attention, event, complaint or message."),
        Field("at", .moment, required: true, "When it happened, with a UTC offset."),
        Field("author", .memberRef, required: true, "The member who reports."),
        Field("location", .coordinate, required: true, "Where it happened."),
        Field("starts", .moment, "For an event: when it starts (a date alone for an all-day event); 'at' stays when it was posted."),
        Field("ends", .moment, "For an event: when it ends (a date alone: the last day)."),
        Field("place", .string, "For an event: where it is, a name of places.yaml or any text."),
        Field("area", .slug, Placement.summary("area")),
    ]), summary: "A report: content/reports/<area>/<date>-<slug>.md")

    public static let reply = RecordSchema(kind: "reply", format: .frontMatter, root: .object([
        Field("author", .memberRef, required: true, "The member who replies."),
        Field("at", .moment, required: true, "When, with a UTC offset."),
        Field("area", .slug, Placement.summary("area")),
        Field("report", .slug, Placement.summary("report")),
    ]), summary: "A reply: content/reports/<area>/<date>-<slug>/replies/<stamp>-<member>.md")

    public static let location = RecordSchema(kind: "location", format: .frontMatter, root: .object([
        Field("name", .string, required: true, "The study place's name."),
        Field("address", .string, "Street address."),
        Field("location", .coordinate, "Where it is."),
        Field("seats", .integer(min: 0), "Number of seats."),
        Field("student_id_required", .boolean, "Whether a student ID is needed."),
        Field("opening_hours", .openingHours, "Days or day ranges (mon, mon-fri) to \"HH:MM-HH:MM\" or closed."),
    ]), summary: "A study location: content/locations/<location>.md")

    public static let checkins = RecordSchema(kind: "checkins", format: .yaml, root: .list(.object([
        Field("location", .slug, required: true, "The study location's id."),
        Field("in", .moment, required: true, "Check-in time, with a UTC offset."),
        Field("out", .moment, "Check-out time; leave out while still checked in."),
    ])), summary: "A member's check-ins: content/checkins/<member>.yaml")

    public static let thread = RecordSchema(kind: "thread", format: .yaml, root: .object([
        Field("participants", .list(.memberRef), required: true, "Two or more members."),
        Field("subject", .string, required: true, "What the thread is about."),
    ]), summary: "A message thread: content/threads/<thread>/thread.yaml")

    public static let message = RecordSchema(kind: "message", format: .frontMatter, root: .object([
        Field("author", .memberRef, required: true, "A participant of the thread."),
        Field("at", .moment, required: true, "When it was sent, with a UTC offset."),
    ]), summary: "A message: content/threads/<thread>/<stamp>-<member>.md")

    public static let page = RecordSchema(kind: "page", format: .frontMatter, root: .object([
        Field("title", .string, required: true, "The page's title, e.g. How to join."),
        Field("description", .string, "One sentence about the page, for search engines and link previews."),
        Field("menu", .boolean, "Whether the site's menu links the page (default true)."),
        Field("menu_title", .string, "A shorter text for its link in the menu (default the title)."),
        Field("order", .integer(), "Where it comes among the site's own pages in the menu: lower first (default 0; then by title)."),
    ]), summary: "A page of the site's own (How to join, Contact): content/pages/<page>.md, published at /<page>/")

    public static let all: [RecordSchema] = [
        site, places, member, group, album, goal, event, area, report, reply, location, checkins, thread, message, page,
    ]
}
