import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import PleinBuild
import PleinCore
import Synchronization

/// `plein serve`'s HTTP side: the site from memory (and plein's cache) over HTTP/1.1 through
/// Hummingbird and SwiftNIO, with live reload over a WebSocket.
///
/// SwiftNIO's parser is bounded and its listener backs off when the process runs out of file
/// descriptors; on top of it `GuardedChannel` limits request heads and times out slow or idle
/// connections, `HostPolicy` refuses foreign `Host`s and `Origin`s, and `ConnectionCap` keeps
/// the number of open connections below what the descriptor limit allows.
public final class DevServer: Sendable {
    private let store: SnapshotStore
    private let reloads = ReloadBroadcaster()
    private let bound = Mutex<Int?>(nil)
    private let started = Mutex<CheckedContinuation<Void, any Error>?>(nil)
    private let failure = Mutex<(any Error)?>(nil)
    private let ready = Mutex(false)
    let host: String
    let port: Int
    let policy: HostPolicy
    let limits: RequestLimits
    let log: @Sendable (String) -> Void

    /// - Parameters:
    ///   - host: the address to listen on; `localhost` means 127.0.0.1.
    ///   - port: the port (0: any free one, see `port()`).
    ///   - allowedHosts: further names the server answers to (`--allow-host`).
    ///   - log: where the server says what the user should know (the descriptor limit reached).
    public init(host: String, port: UInt16, snapshot: SiteSnapshot, allowedHosts: [String] = [], limits: RequestLimits = RequestLimits(),
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        store = SnapshotStore(snapshot)
        self.host = host
        self.port = Int(port)
        policy = HostPolicy(host: host, allowed: allowedHosts)
        self.limits = limits
        self.log = log
    }

    /// The address actually bound to: `localhost` is IPv4's loopback, as browsers try it first.
    var bindAddress: String {
        let bare = HostPolicy.bare(host)
        return bare == "localhost" ? "127.0.0.1" : bare
    }

    /// Listens and serves until cancelled. Binding problems (a port in use, an address this
    /// machine does not have) are thrown as `ListenError` before anything is served.
    public func run() async throws {
        let store = self.store, reloads = self.reloads, limits = self.limits, policy = self.policy
        let responder = PreviewResponder(store: store)
        let builder = HTTPServerBuilder { responder in
            GuardedChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    configuration: .init(
                        http1: .init(idleTimeout: nil, httpDecoderConfiguration: .init(maxHeaderFieldSize: limits.head, maxHeaderListSize: limits.head)),
                        // A ping every half idle timeout, and the socket closed when one is not
                        // answered by the next: a page that stopped answering goes within it.
                        ws: .init(autoPing: .enabled(timePeriod: limits.idleTimeout / 2))
                    )
                ) { request, _, _ in
                    guard let target = request.path, target.split(separator: "?").first == "/__plein/reload" else { return .dontUpgrade }
                    let page = URLComponents(string: target)?.queryItems?.first { $0.name == "page" }?.value
                    return .upgrade([:]) { inbound, outbound, _ in await reloads.serve(inbound: inbound, outbound: outbound, page: page) }
                },
                limits: limits, policy: policy)
        }
        var logger = Logger(label: "plein-serve")
        logger.logLevel = .critical
        let app = Application(
            responder: responder,
            server: builder,
            configuration: .init(
                address: .hostname(bindAddress, port: port),
                serverName: nil,
                backlog: 256,
                availableConnectionsDelegate: ConnectionCap(log: log)
            ),
            onServerRunning: { [self] channel in
                bound.locked { $0 = channel.localAddress?.port }
                ready.locked { $0 = true }
                started.locked { $0.take() }?.resume()
            },
            logger: logger
        )
        do {
            try await app.run()
        } catch {
            let problem = ListenError(error, host: host, port: port)
            failure.locked { $0 = problem }
            started.locked { $0.take() }?.resume(throwing: problem)
            throw problem
        }
    }

    /// Returns once the server listens; throws why it could not.
    public func waitUntilListening() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            if ready.locked({ $0 }) { return continuation.resume() }
            if let failure = failure.locked({ $0 }) { return continuation.resume(throwing: failure) }
            started.locked { $0 = continuation }
        }
    }

    /// The port actually bound (when started on port 0).
    public func port() async -> UInt16? {
        bound.locked { $0 }.map { UInt16($0) }
    }

    /// Replaces what is served; with `reload`, tells open pages to reload.
    /// Serves `next`, and reloads the open pages (but those at `reloaded`, reloaded already by
    /// `publishFirst`).
    public func publish(_ next: SiteSnapshot, reload: Bool = true, except reloaded: [String] = []) async {
        store.current = next
        if reload { await reloads.reload(reloaded.isEmpty ? "reload" : (["reload-except"] + reloaded).joined(separator: " ")) }
    }

    /// Serves `next` at once, from within an update (the pages of the records edited, before
    /// the rest of what the edit changes), and reloads the open pages at `paths` (URL paths).
    public func publishFirst(_ next: SiteSnapshot, reloading paths: [String]) {
        store.current = next
        guard !paths.isEmpty else { return }
        let reloads = self.reloads
        Task { await reloads.reload((["reload-only"] + paths).joined(separator: " ")) }
    }

    public var connectedPages: Int {
        get async { await reloads.count }
    }

    /// The URL paths of the pages open in browsers (as their live-reload sockets said).
    public var openPages: Set<String> {
        get async { await reloads.pages }
    }
}

/// Why the server could not listen, in words a user can act on.
public struct ListenError: Error, CustomStringConvertible {
    public let description: String

    init(_ error: any Error, host: String, port: Int) {
        let text = "\(error)"
        if let io = error as? IOError, io.errnoCode == EADDRINUSE || text.contains("Address already in use") {
            description = "port \(port) is in use: stop the program using it, or choose another port with --port"
        } else if let io = error as? IOError, io.errnoCode == EADDRNOTAVAIL || io.errnoCode == EACCES {
            description = "cannot listen on \(host) port \(port): \(String(cString: strerror(io.errnoCode)))"
        } else if text.contains("Address already in use") {
            description = "port \(port) is in use: stop the program using it, or choose another port with --port"
        } else {
            description = "cannot listen on \(host) port \(port): \(text)"
        }
    }
}

/// What a request is answered with: Hummingbird's basics and the connection, which
/// `FileStream` waits on.
struct PreviewContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Answers every HTTP request from the current snapshot (see `Preview`).
struct PreviewResponder: HTTPResponder {
    typealias Context = PreviewContext
    let store: SnapshotStore

    func respond(to request: Request, context: Context) async throws -> Response {
        let conditions = Preview.Conditions(ifNoneMatch: request.headers[.ifNoneMatch], range: request.headers[.range],
                                            ifRange: request.headers[.ifRange])
        let answer = Preview.respond(method: request.method.rawValue, path: request.head.path ?? "/", conditions: conditions, snapshot: store.current)
        var headers = HTTPFields()
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        let status = HTTPResponse.Status(code: answer.status)
        switch answer.body {
        case .bytes(let bytes):
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        case .file(let path, let offset, let count):
            let channel = context.channel
            return Response(status: status, headers: headers, body: .init(contentLength: count) { writer in
                try await FileStream.send(path: path, offset: offset, count: count, to: &writer, on: channel)
            })
        }
    }
}

/// Sends part of a file in chunks, so a large attachment is never held in memory, nor more
/// than one chunk of it beyond what the socket has taken: the next chunk is read only when the
/// socket has taken the last one. (Waiting for the channel to be writable is not enough: the
/// writer learns of it late, and a client that does not read had megabytes queued.)
enum FileStream {
    struct Failure: Error {}

    static func send(path: String, offset: Int, count: Int, to writer: inout any ResponseBodyWriter, on channel: any Channel) async throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw Failure() }
        defer { close(fd) }
        var position = offset
        var remaining = count
        let chunk = 256 * 1024
        while remaining > 0 {
            var buffer = ByteBufferAllocator().buffer(capacity: min(chunk, remaining))
            let n = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: min(chunk, remaining)) { raw in
                max(0, pread(fd, raw.baseAddress, min(chunk, remaining), off_t(position)))
            }
            guard n > 0 else { throw Failure() }
            position += n
            remaining -= n
            try await writer.write(buffer)
            try await WriteGuard.taken(on: channel)
        }
        try await writer.finish(nil)
    }
}

/// The snapshot being served, replaced after each rebuild.
final class SnapshotStore: Sendable {
    private let value: Mutex<SiteSnapshot>

    init(_ snapshot: SiteSnapshot) { value = Mutex(snapshot) }

    var current: SiteSnapshot {
        get { value.locked { $0 } }
        set { value.locked { $0 = newValue } }
    }
}

/// Keeps one stream per open page and sends each "reload".
actor ReloadBroadcaster {
    private var clients: [UUID: (continuation: AsyncStream<String>.Continuation, page: String?)] = [:]

    var count: Int { clients.count }
    /// The URL paths of the open pages that said which they are.
    var pages: Set<String> { Set(clients.values.compactMap(\.page)) }

    /// Serves one page's socket until it closes (`page`: its URL path, if it said).
    nonisolated func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, page: String? = nil) async {
        let id = UUID()
        let (messages, continuation) = AsyncStream<String>.makeStream()
        await add(id, continuation, page: page)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in messages { try? await outbound.write(.text(message)) }
            }
            group.addTask {
                // Nothing is expected from the page; this ends when it goes away.
                do { for try await _ in inbound {} } catch {}
            }
            await group.next()
            continuation.finish()
            group.cancelAll()
        }
        await remove(id)
    }

    private func add(_ id: UUID, _ continuation: AsyncStream<String>.Continuation, page: String?) {
        // (A page's own path, not a long string any page could send.)
        clients[id] = (continuation, page.flatMap { $0.hasPrefix("/") && $0.utf8.count <= 2048 ? $0 : nil })
    }

    private func remove(_ id: UUID) {
        clients.removeValue(forKey: id)?.continuation.finish()
    }

    /// Sends `message` to every open page: "reload", or "reload-only" or "reload-except"
    /// followed by URL paths (`Preview.reloadScript`).
    func reload(_ message: String = "reload") {
        for client in clients.values { client.continuation.yield(message) }
    }
}
