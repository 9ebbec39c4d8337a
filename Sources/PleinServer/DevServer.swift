public import FlyingFox
import FlyingSocks
public import PleinBuild
import Foundation
import PleinCore
import Synchronization

/// `plein serve`: the site from memory over HTTP, rebuilt as files change, with live reload.
public final class DevServer: Sendable {
    private let store: SnapshotStore
    private let reloads = ReloadBroadcaster()
    public let server: HTTPServer

    public init(host: String, port: UInt16, snapshot: SiteSnapshot) async throws {
        let store = SnapshotStore(snapshot)
        self.store = store
        let address: sockaddr_in = try .inet(ip4: host, port: port)
        server = HTTPServer(address: address, timeout: 30, logger: .disabled)
        let reloads = self.reloads
        await server.appendRoute("GET /__plein/reload", to: WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: reloads)))
        await server.appendRoute("*") { request in
                let current = store.current
                let answer = Preview.respond(
                    method: request.method.rawValue, path: request.target.path(), ifNoneMatch: request.headers[.ifNoneMatch], snapshot: current)
                var headers = HTTPHeaders()
                for (name, value) in answer.headers { headers[HTTPHeader(name)] = value }
                return HTTPResponse(
                    statusCode: HTTPStatusCode(answer.status, phrase: Self.phrase(answer.status)), headers: headers,
                    body: Data(answer.body))
        }
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 301: return "Moved Permanently"
        case 304: return "Not Modified"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        default: return "Internal Server Error"
        }
    }

    /// Serves until cancelled.
    public func run() async throws {
        try await server.run()
    }

    public func waitUntilListening() async throws {
        try await server.waitUntilListening()
    }

    /// The port actually bound (when started on port 0).
    public func port() async -> UInt16? {
        guard case .ip4(_, port: let port)? = await server.listeningAddress else { return nil }
        return port
    }

    /// Replaces what is served and tells open pages to reload.
    public func publish(_ next: SiteSnapshot) async {
        store.current = next
        await reloads.reload()
    }

    public var connectedPages: Int {
        get async { await reloads.count }
    }
}

/// The snapshot being served, replaced after each rebuild.
final class SnapshotStore: Sendable {
    private let value: Mutex<SiteSnapshot>

    init(_ snapshot: SiteSnapshot) { value = Mutex(snapshot) }

    var current: SiteSnapshot {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

/// Keeps one stream per open page and sends each "reload".
actor ReloadBroadcaster: WSMessageHandler {
    private var clients: [UUID: AsyncStream<WSMessage>.Continuation] = [:]

    var count: Int { clients.count }

    nonisolated func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<WSMessage>.makeStream()
        await add(id, continuation)
        Task {
            for await _ in client {}
            await self.remove(id)
        }
        return stream
    }

    private func add(_ id: UUID, _ continuation: AsyncStream<WSMessage>.Continuation) {
        clients[id] = continuation
    }

    private func remove(_ id: UUID) {
        clients.removeValue(forKey: id)?.finish()
    }

    func reload() {
        for continuation in clients.values { continuation.yield(.text("reload")) }
    }
}
