public import PleinBuild
import Foundation
public import PleinCore

/// What the preview serves at one moment: the site's files, or why it cannot be built.
public struct SiteSnapshot: Sendable {
    public let files: [String: SiteState.Served]
    /// An overlay page with the current diagnostics, served instead of pages while the content
    /// has errors.
    public let problems: String?

    public init(files: [String: SiteState.Served], problems: String?) {
        self.files = files
        self.problems = problems
    }
}

/// A response of the preview server, independent of the HTTP library (so it is easy to test).
public struct PreviewResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
}

/// Maps requests to the site's files: directory indexes, the site's 404 page, content types,
/// ETags, HEAD, and nothing outside the site (no `..`, also not percent-encoded).
public enum Preview {
    public static func respond(method: String, path rawPath: String, ifNoneMatch: String?, snapshot: SiteSnapshot) -> PreviewResponse {
        guard method == "GET" || method == "HEAD" else {
            return PreviewResponse(status: 405, headers: ["Allow": "GET, HEAD", "Content-Type": "text/plain; charset=utf-8"], body: Array("Method not allowed\n".utf8))
        }
        guard let path = sitePath(rawPath) else {
            return notFound(snapshot, head: method == "HEAD")
        }
        let file = path.isEmpty || path.hasSuffix("/") ? path + "index.html" : path
        if snapshot.files[file] == nil, snapshot.files[file + "/index.html"] != nil {
            // A folder asked for without its slash: send the browser to the folder.
            return PreviewResponse(status: 301, headers: ["Location": "/" + path + "/"], body: [])
        }
        if let problems = snapshot.problems, file.hasSuffix(".html") {
            return PreviewResponse(status: 500, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"],
                                   body: method == "HEAD" ? [] : Array(problems.utf8))
        }
        guard let served = snapshot.files[file], let bytes = read(served) else {
            return notFound(snapshot, head: method == "HEAD")
        }
        let etag = "\"" + Hashing.sha256Hex(bytes).prefix(20) + "\""
        var headers = ["Content-Type": contentType(for: file), "ETag": etag, "Cache-Control": "no-cache"]
        if let ifNoneMatch, ifNoneMatch.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            return PreviewResponse(status: 304, headers: ["ETag": etag, "Cache-Control": "no-cache"], body: [])
        }
        headers["Content-Length"] = String(bytes.count)
        return PreviewResponse(status: 200, headers: headers, body: method == "HEAD" ? [] : bytes)
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

    static func read(_ served: SiteState.Served) -> [UInt8]? {
        switch served {
        case .bytes(let bytes): return bytes
        case .disk(let path): return FileManager.default.contents(atPath: path).map { Array($0) }
        }
    }

    static func notFound(_ snapshot: SiteSnapshot, head: Bool) -> PreviewResponse {
        let page = snapshot.files["404.html"].flatMap(read) ?? Array("Not found\n".utf8)
        return PreviewResponse(status: 404, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache"],
                               body: head ? [] : page)
    }

    public static func contentType(for path: String) -> String {
        let name = (path as NSString).lastPathComponent
        switch (name as NSString).pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "xml": return name == "sitemap.xml" ? "application/xml; charset=utf-8" : "application/atom+xml; charset=utf-8"
        case "json": return name == "feed.json" || name == "following.json" ? "application/feed+json; charset=utf-8" : "application/json; charset=utf-8"
        case "geojson": return "application/geo+json"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "webp": return "image/webp"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }

    /// The script injected into every page in serve mode (never in `plein build` output): it
    /// reloads the page when the server says so, and after the server restarts.
    public static let reloadScript = """
        <script>(function(){var u=(location.protocol==="https:"?"wss://":"ws://")+location.host+"/__plein/reload";\
        function open(again){var s=new WebSocket(u);s.onopen=function(){if(again)location.reload();};\
        s.onmessage=function(e){if(e.data==="reload")location.reload();};\
        s.onclose=function(){setTimeout(function(){open(true);},1000);};}open(false);})();</script>
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
