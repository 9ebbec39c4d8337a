public import PleinBuild
import Foundation
public import PleinCore
import PleinRender

/// What the preview serves at one moment: the site's files, or why it cannot be built.
public struct SiteSnapshot: Sendable {
    public let files: ServedFiles
    /// An overlay page with the current diagnostics, served instead of pages while the content
    /// has errors.
    public let problems: String?
    /// The first build has not finished: every request gets a page saying so.
    public let building: Bool

    public init(files: ServedFiles, problems: String?, building: Bool = false) {
        self.files = files
        self.problems = problems
        self.building = building
    }

    /// What is served while the first build runs.
    public static let firstBuild = SiteSnapshot(files: [:], problems: nil, building: true)
}

/// A response of the preview server, independent of the HTTP library (so it is easy to test).
public struct PreviewResponse: Sendable, Equatable {
    public enum Body: Sendable, Equatable {
        case bytes([UInt8])
        /// `count` bytes from `offset` of a file in plein's cache, streamed when sent.
        case file(path: String, offset: Int, count: Int)
    }

    public var status: Int
    public var headers: [String: String]
    public var body: Body

    init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    init(status: Int, headers: [String: String], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body's bytes (a file's are read: for tests and small files).
    public var bytes: [UInt8] {
        switch body {
        case .bytes(let bytes): return bytes
        case .file(let path, let offset, let count):
            guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
            defer { try? handle.close() }
            try? handle.seek(toOffset: UInt64(offset))
            return Array((try? handle.read(upToCount: count)) ?? Data())
        }
    }
}

/// Maps requests to the site's files: directory indexes, the site's 404 page, content types,
/// ETags, ranges, HEAD, and nothing outside the site (no `..`, also not percent-encoded). Files
/// are answered from what the last successful build made; nothing is read from the content.
public enum Preview {
    /// The request headers that matter here.
    public struct Conditions: Sendable, Equatable {
        public var ifNoneMatch: String?
        public var range: String?
        /// The validator the client's part was cut from: the range is sent only if it is still
        /// the current one.
        public var ifRange: String?
        public init(ifNoneMatch: String? = nil, range: String? = nil, ifRange: String? = nil) {
            self.ifNoneMatch = ifNoneMatch
            self.range = range
            self.ifRange = ifRange
        }
    }

    public static func respond(method: String, path rawPath: String, ifNoneMatch: String?, snapshot: SiteSnapshot) -> PreviewResponse {
        respond(method: method, path: rawPath, conditions: Conditions(ifNoneMatch: ifNoneMatch), snapshot: snapshot)
    }

    public static func respond(method: String, path rawPath: String, conditions: Conditions, snapshot: SiteSnapshot) -> PreviewResponse {
        guard method == "GET" || method == "HEAD" else { return methodNotAllowed }
        let head = method == "HEAD"
        if snapshot.building {
            return PreviewResponse(status: 503, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "1"],
                                   body: head ? [] : Array(buildingPage.utf8))
        }
        guard let path = sitePath(rawPath) else {
            return notFound(snapshot, head: head)
        }
        let file = path.isEmpty || path.hasSuffix("/") ? path + "index.html" : path
        if snapshot.files[file] == nil, snapshot.files[file + "/index.html"] != nil {
            // A folder asked for without its slash: send the browser to the folder.
            return PreviewResponse(status: 301, headers: ["Location": "/" + path + "/"], body: [])
        }
        if let problems = snapshot.problems, file.hasSuffix(".html") {
            return PreviewResponse(status: 500, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"],
                                   body: head ? [] : Array(problems.utf8))
        }
        guard let served = snapshot.files[file], let entity = Entity(served) else {
            return notFound(snapshot, head: head)
        }
        var headers = ["Content-Type": contentType(for: file), "ETag": entity.etag, "Cache-Control": "no-cache", "Accept-Ranges": "bytes"]
        if let ifNoneMatch = conditions.ifNoneMatch, ifNoneMatch.split(separator: ",").contains(where: {
            let tag = $0.trimmingCharacters(in: .whitespaces)
            return tag == entity.etag || tag == "W/" + entity.etag || tag == "*"
        }) {
            return PreviewResponse(status: 304, headers: ["ETag": entity.etag, "Cache-Control": "no-cache"], body: [])
        }
        var status = 200
        var range = 0..<entity.size
        // An If-Range naming another version (or a date: no Last-Modified is sent, so none can
        // match) means the client's part is stale: the whole file instead (RFC 9110, 13.1.5).
        // Only a strong validator matches, and the ETags here are strong.
        if let header = conditions.range, conditions.ifRange.map({ $0.trimmingCharacters(in: .whitespaces) == entity.etag }) ?? true {
            switch ByteRange.parse(header, size: entity.size) {
            case .whole: break
            case .part(let part):
                status = 206
                range = part
                headers["Content-Range"] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(entity.size)"
            case .unsatisfiable:
                return PreviewResponse(status: 416, headers: ["Content-Range": "bytes */\(entity.size)", "Content-Type": "text/plain; charset=utf-8"],
                                       body: head ? [] : Array("The range is outside the file.\n".utf8))
            }
        }
        headers["Content-Length"] = String(range.count)
        return PreviewResponse(status: status, headers: headers, body: head ? .bytes([]) : entity.body(range))
    }

    static let methodNotAllowed = PreviewResponse(
        status: 405, headers: ["Allow": "GET, HEAD", "Content-Type": "text/plain; charset=utf-8"],
        body: Array("plein serve answers GET and HEAD only.\n".utf8))

    /// A served file's size, validator and bytes, found without reading it.
    struct Entity {
        let size: Int
        let etag: String
        let body: (Range<Int>) -> PreviewResponse.Body

        init?(_ served: SiteState.Served) {
            switch served {
            case .bytes(let bytes):
                size = bytes.count
                etag = "\"" + Hashing.sha256Hex(bytes).prefix(20) + "\""
                body = { .bytes(Array(bytes[$0])) }
            case .disk(let path):
                guard let info = CachedFileInfo(path: path) else { return nil }
                size = info.size
                etag = info.etag
                body = { .file(path: path, offset: $0.lowerBound, count: $0.count) }
            }
        }
    }

    /// The site-relative path of a request, or nil when it tries to leave the site.
    static func sitePath(_ raw: String) -> String? {
        let pathOnly = raw.split(separator: "?", maxSplits: 1).first.map(String.init) ?? raw
        guard let decoded = pathOnly.removingPercentEncoding, !decoded.contains("\0"), !decoded.contains("\\") else { return nil }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." || segment.hasPrefix(".") { return nil }
            segments.append(segment)
        }
        let joined = segments.joined(separator: "/")
        return decoded.hasSuffix("/") && !joined.isEmpty ? joined + "/" : joined
    }

    static func notFound(_ snapshot: SiteSnapshot, head: Bool) -> PreviewResponse {
        let page = snapshot.files[Routes.notFound].flatMap(Entity.init).map { PreviewResponse(status: 404, headers: [:], body: $0.body(0..<$0.size)).bytes }
            ?? Array("Not found\n".utf8)
        return PreviewResponse(status: 404, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache"],
                               body: head ? [] : page)
    }

    /// The type of a served file, exact for what a site holds (pages, feeds, pictures, sound,
    /// video, documents); anything else is `application/octet-stream`, which a browser offers to
    /// save rather than guesses at (every response also says `nosniff`).
    public static func contentType(for path: String) -> String {
        let name = (path as NSString).lastPathComponent
        switch (name as NSString).pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "xml": return name == "sitemap.xml" ? "application/xml; charset=utf-8" : "application/atom+xml; charset=utf-8"
        case "json": return name == "feed.json" || name == "following.json" ? "application/feed+json; charset=utf-8" : "application/json; charset=utf-8"
        case "geojson": return "application/geo+json"
        case "ics": return "text/calendar; charset=utf-8"
        case "yml", "yaml": return "application/yaml; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        case "gif": return "image/gif"
        case "pdf": return "application/pdf"
        case "txt": return "text/plain; charset=utf-8"
        case "csv": return "text/csv; charset=utf-8"
        case "mp3": return "audio/mpeg"
        case "m4a": return "audio/mp4"
        case "ogg", "oga", "opus": return "audio/ogg"
        case "wav": return "audio/wav"
        case "flac": return "audio/flac"
        case "mp4": return "video/mp4"
        case "webm": return "video/webm"
        default: return "application/octet-stream"
        }
    }

    /// The script injected into every page in serve mode (never in `plein build` output): it
    /// says which page it is on (`?page=`, so that an edit renders the open pages first), and
    /// reloads the page when the server says so ("reload"; "reload-only" or "reload-except"
    /// with URL paths, for the pages of an edited record first and the others after), and after
    /// the server restarts.
    public static let reloadScript = """
        <script>(function(){var u=(location.protocol==="https:"?"wss://":"ws://")+location.host+"/__plein/reload?page="\
        +encodeURIComponent(location.pathname);\
        function open(again){var s=new WebSocket(u);s.onopen=function(){if(again)location.reload();};\
        s.onmessage=function(e){var d=e.data.split(" "),i=d.indexOf(location.pathname,1);\
        if(d[0]==="reload"||d[0]==="reload-only"&&i>0||d[0]==="reload-except"&&i<0)location.reload();};\
        s.onclose=function(){setTimeout(function(){open(true);},1000);};}open(false);})();</script>
        """

    /// What a browser sees while the first build runs; it reloads when the build is done.
    static let buildingPage = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>plein: building the site</title>
        <style>body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#1c1b19;color:#f5f5f4}main{max-width:60rem;margin:0 auto;padding:2rem 1rem}</style>
        </head><body><main><h1>Building the site…</h1><p>This page reloads when the build is done.</p></main>\(reloadScript)</body></html>
        """

    /// A page listing the content's problems, shown in the browser until they are fixed.
    public static func problemsPage(_ diagnostics: [Diagnostic], sources: [String: String]) -> String {
        let formatter = DiagnosticFormatter(sources: sources)
        let items = diagnostics.filter { $0.severity == .error }.map { "<pre>" + escape(formatter.text($0)) + "</pre>" }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>plein: the content has errors</title>
            <style>body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#1c1b19;color:#f5f5f4}main{max-width:60rem;margin:0 auto;padding:2rem 1rem}\
            h1{color:#fca5a5;font-size:1.4rem}pre{white-space:pre-wrap;background:#292524;border-left:4px solid #f87171;padding:1rem;border-radius:.4rem;overflow-x:auto}</style>
            </head><body><main><h1>\(diagnostics.errorCount) error\(diagnostics.errorCount == 1 ? "" : "s") in the content</h1>
            <p>Fix the files below; this page reloads when they are saved.</p>
            \(items.joined(separator: "\n"))
            </main>\(reloadScript)</body></html>
            """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
