import Foundation
import PleinBuild
@testable import PleinServer
import Testing

@Suite struct PreviewTests {
    let snapshot = SiteSnapshot(files: [
        "index.html": .bytes(Array("<h1>home</h1>".utf8)),
        "users/index.html": .bytes(Array("<h1>members</h1>".utf8)),
        "users/anna/index.html": .bytes(Array("<h1>anna</h1>".utf8)),
        "feed.xml": .bytes(Array("<feed/>".utf8)),
        "feed.json": .bytes(Array("{}".utf8)),
        "sitemap.xml": .bytes(Array("<urlset/>".utf8)),
        "reports/map.geojson": .bytes(Array("{}".utf8)),
        "divers/index.json": .bytes(Array("{}".utf8)),
        "assets/style.abc.css": .bytes(Array("body{}".utf8)),
        "404.html": .bytes(Array("<h1>lost</h1>".utf8)),
    ], problems: nil)

    func get(_ path: String, method: String = "GET", etag: String? = nil, in snapshot: SiteSnapshot? = nil) -> PreviewResponse {
        Preview.respond(method: method, path: path, ifNoneMatch: etag, snapshot: snapshot ?? self.snapshot)
    }

    @Test func servesFilesWithTheirContentTypes() {
        #expect(get("/").headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(get("/").bytes == Array("<h1>home</h1>".utf8))
        #expect(get("/users/anna/").bytes == Array("<h1>anna</h1>".utf8))
        #expect(get("/feed.xml").headers["Content-Type"] == "application/atom+xml; charset=utf-8")
        #expect(get("/feed.json").headers["Content-Type"] == "application/feed+json; charset=utf-8")
        #expect(get("/divers/index.json").headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(get("/sitemap.xml").headers["Content-Type"] == "application/xml; charset=utf-8")
        #expect(get("/reports/map.geojson").headers["Content-Type"] == "application/geo+json")
        #expect(get("/assets/style.abc.css").headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(Preview.contentType(for: "a/b.webp") == "image/webp")
        // The CMS's configuration (a report never publishes a YAML file).
        #expect(Preview.contentType(for: "admin/config.yml") == "application/yaml; charset=utf-8")
    }

    /// Attachments get their exact type, and anything unknown one no browser sniffs into a page.
    @Test(arguments: [
        ("a.jpg", "image/jpeg"), ("a.JPEG", "image/jpeg"), ("a.png", "image/png"), ("a.webp", "image/webp"), ("a.gif", "image/gif"),
        ("a.avif", "image/avif"), ("a.pdf", "application/pdf"), ("a.txt", "text/plain; charset=utf-8"), ("a.csv", "text/csv; charset=utf-8"),
        ("a.mp3", "audio/mpeg"), ("a.m4a", "audio/mp4"), ("a.ogg", "audio/ogg"), ("a.oga", "audio/ogg"), ("a.opus", "audio/ogg"),
        ("a.wav", "audio/wav"), ("a.flac", "audio/flac"), ("a.mp4", "video/mp4"), ("a.webm", "video/webm"),
        ("a.exe", "application/octet-stream"), ("a.docx", "application/octet-stream"), ("README", "application/octet-stream"),
    ])
    func attachmentsHaveExactTypes(_ name: String, _ type: String) {
        #expect(Preview.contentType(for: "reports/1094/x/" + name) == type)
    }

    @Test func foldersWithoutASlashRedirect() {
        let r = get("/users/anna")
        #expect(r.status == 301)
        #expect(r.headers["Location"] == "/users/anna/")
    }

    @Test func unknownPathsGetTheSite404Page() {
        let r = get("/nowhere/")
        #expect(r.status == 404)
        #expect(r.bytes == Array("<h1>lost</h1>".utf8))
    }

    @Test func eTagsAndHead() throws {
        let first = get("/users/")
        let etag = try #require(first.headers["ETag"])
        #expect(get("/users/", etag: etag).status == 304)
        #expect(get("/users/", etag: "\"other\"").status == 200)
        let head = get("/users/", method: "HEAD")
        #expect(head.status == 200 && head.bytes.isEmpty)
        #expect(head.headers["Content-Length"] == String(first.bytes.count))
        #expect(get("/users/", method: "POST").status == 405)
    }

    @Test(arguments: ["/../etc/passwd", "/users/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/users/%2E%2E/%2E%2E/x",
                      "/.git/config", "/users/%00/index.html", "/..%2f..%2fetc%2fpasswd", "/a\\..\\b"])
    func nothingOutsideTheSite(_ path: String) {
        let r = get(path)
        #expect(r.status == 404, "\(path) → \(r.status)")
        #expect(r.bytes == Array("<h1>lost</h1>".utf8))
    }

    @Test func problemsReplacePagesUntilFixed() {
        let broken = SiteSnapshot(files: snapshot.files, problems: "<h1>2 errors</h1>")
        let page = get("/users/", in: broken)
        #expect(page.status == 500)
        #expect(page.bytes == Array("<h1>2 errors</h1>".utf8))
        #expect(get("/feed.xml", in: broken).status == 200, "feeds and data stay reachable")
    }
}

/// The real server over a socket: the same answers through Hummingbird, and paths a client would
/// normally clean up sent as they are.
@Suite(.serialized) struct DevServerTests {
    /// Sends one raw HTTP/1.1 request and returns the status line and the body.
    func request(_ port: UInt16, _ target: String, method: String = "GET") async throws -> (status: Int, head: String, body: String) {
        try await blocking { try self.requestNow(port, target, method: method) }
    }

    func requestNow(_ port: UInt16, _ target: String, method: String = "GET") throws -> (status: Int, head: String, body: String) {
        let client = try RawClient(port: port)
        client.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let parts = client.receiveAll().components(separatedBy: "\r\n\r\n")
        return (status(of: parts[0]), parts[0], parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    @Test func servesOverHTTP() async throws {
        let files: ServedFiles = [
            "index.html": .bytes(Array("<p>home</p>".utf8)), "404.html": .bytes(Array("<p>lost</p>".utf8)),
            "reports/1094/map.geojson": .bytes(Array("{\"type\":\"FeatureCollection\"}".utf8)),
        ]
        let server = DevServer(host: "127.0.0.1", port: 0, snapshot: SiteSnapshot(files: files, problems: nil))
        let task = Task { try await server.run() }
        defer { task.cancel() }
        try await server.waitUntilListening()
        let port = try #require(await server.port())

        let home = try await request(port, "/")
        #expect(home.status == 200 && home.body == "<p>home</p>")
        #expect(home.head.lowercased().contains("content-type: text/html; charset=utf-8"))
        let map = try await request(port, "/reports/1094/map.geojson")
        #expect(map.head.lowercased().contains("content-type: application/geo+json"))
        let missing = try await request(port, "/nope")
        #expect(missing.status == 404 && missing.body == "<p>lost</p>")
        for evil in ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/reports/../../../etc/passwd"] {
            let answer = try await request(port, evil)
            #expect(answer.status == 404 && !answer.body.contains("root:"), "\(evil)")
        }
        let head = try await request(port, "/", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)

        await server.publish(SiteSnapshot(files: ["index.html": .bytes(Array("<p>new</p>".utf8))], problems: nil))
        #expect(try await request(port, "/").body == "<p>new</p>")
    }

    @Test func openPagesAreToldToReload() async throws {
        let server = DevServer(host: "127.0.0.1", port: 0, snapshot: SiteSnapshot(files: [:], problems: nil))
        let task = Task { try await server.run() }
        defer { task.cancel() }
        try await server.waitUntilListening()
        let port = try #require(await server.port())

        // Generous waits: CI runs this beside another suite on two cores.
        let client = try RawClient(port: port, timeout: 15)
        let handshake = "GET /__plein/reload HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        client.send(handshake)
        func receive() async throws -> [UInt8] {
            try await blocking {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = recv(client.fd, &buffer, buffer.count, 0)
                return Array(buffer[0..<max(0, n)])
            }
        }
        let answer = String(decoding: try await receive(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 101"))
        #expect(answer.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))

        for _ in 0..<750 where await server.connectedPages == 0 { try await Task.sleep(for: .milliseconds(20)) }
        try #require(await server.connectedPages == 1, "the page is counted as open")
        // A rebuild that changed nothing replaces the snapshot without reloading anything.
        await server.publish(SiteSnapshot(files: [:], problems: nil), reload: false)
        await server.publish(SiteSnapshot(files: [:], problems: nil))
        var frame = try await receive()
        // A slow machine may see the server's keep-alive ping first (0x89, length, payload).
        while frame.count >= 2, frame[0] == 0x89, frame.count >= 2 + Int(frame[1] & 0x7F) {
            frame.removeFirst(2 + Int(frame[1] & 0x7F))
            if frame.isEmpty { frame = try await receive() }
        }
        #expect(frame.count == 8, "exactly one frame: \(frame)")
        #expect(frame.first == 0x81, "one final text frame")
        #expect(String(decoding: frame.dropFirst(2), as: UTF8.self) == "reload")
    }
}
