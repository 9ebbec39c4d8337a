import Foundation
import PleinText
public import PleinCore
import PleinModel
import PleinMustache

/// The site as an app on members' phones (`site.yaml` `app`, docs/publishing.md): the web app
/// manifest, the service worker and the page it shows offline. The icons are theme assets
/// (`app-icon-<size>.png`), made from the site's icon by the build (`AppIcons`).
public enum AppIcon {
    /// The sizes browsers ask for: 192 and 512 pixels (Chrome's install prompt needs both), 180
    /// for iOS's home screen (`apple-touch-icon`, on the app's background: iOS shows a
    /// transparent corner black).
    public static let sizes = [180, 192, 512]
    /// The theme asset of one size.
    public static func asset(_ size: Int) -> String { "app-icon-\(size).png" }
    /// Android's icon, which it cuts to its own shape: the icon in the middle 60% of a square of
    /// the app's background (the safe zone is the middle circle of 80%).
    public static let maskable = "app-icon-maskable-512.png"
    /// Every icon asset the build makes.
    public static var assets: [String] { sizes.map(asset) + [maskable] }
}

/// The colours of the app: the site's (`app.theme_color`, `app.background_color`), else the
/// theme's accent and background (its stylesheet's `--accent` and `--bg`).
public struct AppColours {
    public let theme: String
    public let background: String

    public init(site: SiteConfig, theme: Theme) {
        let css = theme.assets["style.css"].map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        func colour(_ given: String?, _ property: String, _ fallback: String) -> String {
            if let given, AppSettings.isColour(given) { return given.lowercased() }
            return Self.property(property, in: css) ?? fallback
        }
        self.theme = colour(site.app.themeColor, "--accent", "#1d4ed8")
        background = colour(site.app.backgroundColor, "--bg", "#ffffff")
    }

    /// The first `#rrggbb` value of a custom property in a stylesheet (the light scheme's, which
    /// `:root` declares first).
    static func property(_ name: String, in css: String) -> String? {
        guard let range = css.range(of: name + ":") else { return nil }
        let value = css[range.upperBound...].drop { $0 == " " }.prefix { $0 != ";" && $0 != "\n" && $0 != " " }
        let text = String(value)
        return AppSettings.isColour(text) ? text.lowercased() : nil
    }
}

extension FrameValues {
    /// `app` in every page's head: the manifest, and the service worker to register (none in
    /// `plein serve`, whose pages must never come from a cache while they are edited).
    static func appValues(site: SiteConfig, theme: Theme, routes: Routes, serving: Bool) -> TemplateValue? {
        guard site.app.enabled else { return nil }
        var app: TemplateContext = [
            "manifest": .text(routes.url(routes.manifest)),
            "theme_color": .text(AppColours(site: site, theme: theme).theme),
            // (iOS takes a PNG only.)
            "touch_icon": .text(theme.assets[AppIcon.asset(180)].map { routes.url($0.output) }),
            // The site's picture in its h-card (what Bridgy Fed shows as the account's).
            "photo": .text(routes.absolute(theme.assets[AppIcon.asset(512)]?.output ?? theme.asset(AppIcon.source(site)))),
        ]
        if !serving {
            app["worker"] = .text(routes.url(routes.serviceWorker))
            app["scope"] = .text(routes.basePath)
        }
        return .object(app)
    }
}

extension AppIcon {
    /// The theme asset the icons are made from.
    static func source(_ site: SiteConfig) -> String { site.app.icon ?? "icon.svg" }
}

/// `manifest.webmanifest` (W3C Web Application Manifest): what a phone needs to install the
/// site as an app.
struct AppManifest: Rendering {
    let inputs: RenderInputs

    func render() -> OutputFile {
        let colours = AppColours(site: site, theme: inputs.theme)
        let theme = inputs.theme
        var icons: [JSON] = AppIcon.sizes.filter { $0 != 180 }.compactMap { size in
            guard let asset = theme.assets[AppIcon.asset(size)] else { return nil }
            return .object([("src", .string(routes.url(asset.output))), ("sizes", .string("\(size)x\(size)")),
                            ("type", .string("image/png")), ("purpose", .string("any"))])
        }
        if let maskable = theme.assets[AppIcon.maskable] {
            icons.append(.object([("src", .string(routes.url(maskable.output))), ("sizes", .string("512x512")),
                                  ("type", .string("image/png")), ("purpose", .string("maskable"))]))
        }
        // Without libvips' copies, the theme's vector icon at any size.
        if icons.isEmpty, let svg = theme.assets["icon.svg"] {
            icons.append(.object([("src", .string(routes.url(svg.output))), ("sizes", .string("any")), ("type", .string("image/svg+xml"))]))
        }
        var shortcuts: [JSON] = []
        func shortcut(_ key: String, _ path: String) {
            shortcuts.append(.object([("name", .string(strings[key])), ("url", .string(routes.url(path)))]))
        }
        if site.has(.reports) { shortcut("nav_reports", routes.areas) }
        if !events(.site).isEmpty { shortcut("events_title", routes.events) }
        if inputs.options.search { shortcut("search_title", routes.search) }
        var fields: [(String, JSON)] = [
            ("id", .string(routes.basePath)),
            ("name", .string(site.title)),
            ("short_name", .string(site.app.shortName ?? site.title)),
        ]
        if !site.description.isEmpty { fields.append(("description", .string(site.description))) }
        fields += [
            ("lang", .string(site.language.rawValue)),
            ("dir", .string("ltr")),
            ("start_url", .string(routes.basePath)),
            ("scope", .string(routes.basePath)),
            ("display", .string("standalone")),
            ("theme_color", .string(colours.theme)),
            ("background_color", .string(colours.background)),
            ("icons", .array(icons)),
        ]
        if !shortcuts.isEmpty { fields.append(("shortcuts", .array(shortcuts))) }
        return OutputFile(path: routes.manifest, bytes: JSON.object(fields).serializedBytes(pretty: true) + [10])
    }
}

/// `sw.js`: the service worker, at the root of the site so that its scope is the whole site. It
/// is the theme's `sw.js` asset (the code), loaded with what this site caches: the shell (the
/// theme's assets, the icons and the offline page) under a version that is the hash of those, and
/// the home page, the newest reports and the upcoming events, which it keeps readable offline from
/// the first visit as it keeps every page visited. In `plein serve`, and when the site's app is
/// off, it is a worker that takes itself and its caches away, so that a worker registered by a
/// build served on the same address never stands between an edit and the browser.
struct ServiceWorker: Rendering {
    let inputs: RenderInputs

    func render() -> OutputFile {
        guard !inputs.options.serving, site.app.enabled else {
            return OutputFile(path: routes.serviceWorker, text: Self.retiring)
        }
        let theme = inputs.theme
        // The shell: what every page needs, and the page shown offline for a page not kept.
        var shell = ["style.css", "plein.js", "icon.svg"].compactMap { theme.assets[$0].map { routes.url($0.output) } }
        shell += AppIcon.assets.compactMap { theme.assets[$0].map { routes.url($0.output) } }
        let offline = routes.url(routes.offline)
        shell.append(offline)
        let offlinePage = PageFrame(inputs: inputs).render(OfflinePage(inputs: inputs).page())
        // The pages kept from the first visit: the home page, the newest reports, the upcoming
        // public events.
        var pages = [routes.url(routes.home)]
        if site.has(.reports) {
            pages += view.reportOrder.prefix(site.app.offlineReports).map { routes.url(routes.report($0)) }
        }
        if site.app.offlineEvents > 0 {
            let upcoming = upcomingAndPast(events(.site)).upcoming
            pages += upcoming.prefix(site.app.offlineEvents).map { routes.url($0.path) }
        }
        var seen: Set<String> = []
        pages = pages.filter { seen.insert($0).inserted }
        // (The version is the shell's: a new report changes the pages kept, not the shell.)
        let hashed = Array(shell.joined(separator: "\n").utf8) + [0] + offlinePage.bytes
        let version = String(Hashing.sha256Hex(hashed).prefix(16))
        let config = JSON.object([
            ("version", .string(version)),
            ("scope", .string(routes.basePath)),
            ("lang", .string(site.language.rawValue)),
            ("shell", .array(shell.map(JSON.string))),
            ("offline", .string(offline)),
            ("pages", .array(pages.map(JSON.string))),
            ("skip", .array([routes.cmsPage, "pagefind/", routes.serviceWorker].map { .string(routes.url($0)) })),
            ("text", .object([
                ("saved", .string(strings["offline_saved"])),
            ])),
        ])
        let code = routes.url(theme.asset("sw.js"))
        let script = "// plein's service worker for \(routes.basePath): what it keeps, then its code (the theme's sw.js).\n"
            + "self.plein = " + config.serialized(pretty: true) + ";\n"
            + "importScripts(" + JSON.string(code).serialized() + ");\n"
        return OutputFile(path: routes.serviceWorker, text: script)
    }

    /// The worker `plein serve` publishes, and a site whose app is off: it takes itself away
    /// with plein's caches, and reloads the pages it controlled from the server.
    static let retiring = """
        // No service worker here: this is plein serve (the site is being edited), or the site's
        // app is off. This one takes away a worker registered before, with its caches.
        self.addEventListener("install", function () { self.skipWaiting(); });
        self.addEventListener("activate", function (event) {
          event.waitUntil(caches.keys().then(function (keys) {
            return Promise.all(keys.filter(function (key) { return key.indexOf("plein:") === 0; }).map(function (key) { return caches.delete(key); }));
          }).then(function () { return self.registration.unregister(); }).then(function () {
            return self.clients.matchAll({ type: "window" });
          }).then(function (clients) {
            clients.forEach(function (client) { client.navigate(client.url); });
          }));
        });

        """
}

/// `/offline/`: what the service worker shows for a page it does not keep when there is no
/// connection. Not in the sitemap or the search.
struct OfflinePage: PageRenderer {
    let inputs: RenderInputs

    struct Values: TemplateValues, Encodable {
        let homeURL: String
    }

    func page() -> Page {
        var page = Page(kind: .offline, path: routes.offline, title: strings["offline_title"], description: strings["offline_text"], section: .none)
        page.noindex = true
        page.values = Values(homeURL: routes.url(routes.home))
        return page
    }
}
