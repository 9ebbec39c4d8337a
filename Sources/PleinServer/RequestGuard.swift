import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// What a connection may send before its request is understood, and for how long.
public struct RequestLimits: Sendable {
    /// The request line (`GET /path HTTP/1.1`): longer gets 414.
    public var requestLine = 8 * 1024
    /// The request line and headers together: larger gets 431.
    public var head = 64 * 1024
    /// From a request's first byte to the end of its headers: slower gets 408 and is closed.
    public var headTimeout: Duration = .seconds(10)
    /// A connection is closed after this long with no request under way, or with a response the
    /// client has taken nothing of (it stopped reading); a live-reload socket whose page does
    /// not answer pings for this long too.
    public var idleTimeout: Duration = .seconds(30)

    public init() {}

    /// The limits of `plein serve`: these, with `PLEIN_SERVE_IDLE_TIMEOUT` (seconds) shortening
    /// the idle timeout, so that tests of the real binary need not wait half a minute.
    static func serving(environment: [String: String]) -> RequestLimits {
        var limits = RequestLimits()
        if let seconds = environment["PLEIN_SERVE_IDLE_TIMEOUT"].flatMap(Double.init), seconds > 0 {
            limits.idleTimeout = min(limits.idleTimeout, .milliseconds(Int(seconds * 1000)))
        }
        return limits
    }
}

/// Wraps a Hummingbird child channel with the guards: `WriteGuard` next to the socket,
/// `HeadGuard` in front of the HTTP parser, `HTTPGuard` right after it.
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let limits: RequestLimits
    let policy: HostPolicy

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limits = self.limits, policy = self.policy
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Nothing is read before the child channel is set up, so the order of adding is free.
            let phase = HeadGuard(limits: limits)
            try channel.pipeline.syncOperations.addHandler(phase, position: .first)
            try channel.pipeline.syncOperations.addHandler(WriteGuard(timeout: limits.idleTimeout), position: .first)
            let decoder = try channel.pipeline.syncOperations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(HTTPGuard(policy: policy, phase: phase), position: .after(decoder.handler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Reads the raw bytes of each request head before the HTTP parser does: a request line or a
/// head over the limits is answered at once (414, 431) without parsing it; a head that arrives
/// too slowly (a client sending a byte at a time) gets 408; an idle connection is closed.
final class HeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let limits: RequestLimits
    private var context: ChannelHandlerContext?
    /// Reading a request head (else a request is being answered, or the connection upgraded).
    private var scanning = true
    private var upgraded = false
    private var closed = false
    private var lineBytes = 0
    private var headBytes = 0
    private var lineEnded = false
    private var lastFour: UInt32 = 0
    private var timer: Scheduled<Void>?

    init(limits: RequestLimits) { self.limits = limits }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { armIdle(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        armIdle(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        closed = true
        context.fireChannelInactive()
    }

    private func arm(_ context: ChannelHandlerContext, after delay: Duration, _ action: @escaping (HeadGuard, ChannelHandlerContext) -> Void) {
        timer?.cancel()
        let loop = context.eventLoop
        timer = loop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) { [self] in
            guard let context = self.context, !self.closed else { return }
            action(self, context)
        }
    }

    private func armIdle(_ context: ChannelHandlerContext) {
        arm(context, after: limits.idleTimeout) { guardian, context in
            guardian.closed = true
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if closed { return }
        let buffer = unwrapInboundIn(data)
        guard scanning, !upgraded else {
            context.fireChannelRead(data)
            return
        }
        if headBytes == 0, buffer.readableBytes > 0 {
            arm(context, after: limits.headTimeout) { guardian, context in
                guardian.reject(context, status: "408 Request Timeout", "The request's headers took too long to arrive.\n")
            }
        }
        var refused: (String, String)?
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                headBytes += 1
                if !lineEnded {
                    if byte == UInt8(ascii: "\n") {
                        // Empty lines before a request line are allowed (RFC 9112, 2.2).
                        lineEnded = lineBytes > 0
                        lineBytes = 0
                    } else if byte != UInt8(ascii: "\r") {
                        lineBytes += 1
                        if lineBytes > limits.requestLine {
                            refused = ("414 URI Too Long", "The request's address is longer than \(limits.requestLine / 1024) KiB.\n")
                            return
                        }
                    }
                }
                lastFour = lastFour << 8 | UInt32(byte)
                if lineEnded, lastFour == 0x0D0A_0D0A || lastFour & 0xFFFF == 0x0A0A {
                    // The head is complete: the parser takes it from here.
                    scanning = false
                    timer?.cancel()
                    return
                }
                if headBytes > limits.head {
                    refused = ("431 Request Header Fields Too Large", "The request's headers are larger than \(limits.head / 1024) KiB.\n")
                    return
                }
            }
        }
        if let (status, text) = refused {
            reject(context, status: status, text)
            return
        }
        context.fireChannelRead(data)
    }

    /// Answers without the HTTP layer (the request was never parsed) and closes.
    private func reject(_ context: ChannelHandlerContext, status: String, _ text: String) {
        guard !closed else { return }
        closed = true
        timer?.cancel()
        let response = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(text.utf8.count)\r\n"
            + "Connection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n" + text
        let buffer = context.channel.allocator.buffer(string: response)
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// The response to the current request has been written: the next bytes start a new head.
    func requestAnswered() {
        guard let context, !upgraded, !closed else { return }
        scanning = true
        headBytes = 0
        lineBytes = 0
        lineEnded = false
        lastFour = 0
        armIdle(context)
    }

    /// The connection became a WebSocket: its bytes are frames from now on.
    func becameWebSocket() {
        upgraded = true
        timer?.cancel()
    }
}

/// Knows what the socket has not taken yet: lets `FileStream` wait until it has, and drops a
/// client that stops reading (a connection whose writes have waited for the socket for the idle
/// timeout, without any of them done, is reset), so that such clients cannot hold the
/// connection slots (`ConnectionCap`) for long.
final class WriteGuard: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let timeout: TimeAmount
    /// Writes handed on whose bytes the socket has not all taken yet.
    private var unsent = 0
    /// When the socket last took a write whole (or when writing started after none was waiting).
    private var progress = NIODeadline.now()
    private var timer: Scheduled<Void>?
    /// Those waiting for the socket to take everything.
    private var waiting: [EventLoopPromise<Void>] = []

    init(timeout: Duration) { self.timeout = TimeAmount(timeout) }

    /// Returns when the socket has taken everything written to `channel` before the call.
    static func taken(on channel: any Channel) async throws {
        try await channel.eventLoop.flatSubmit {
            // Run on the event loop after the writes asked for before: they are in the pipeline.
            guard let guardian = try? channel.pipeline.syncOperations.handler(type: WriteGuard.self), guardian.unsent > 0 else {
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            let promise = channel.eventLoop.makePromise(of: Void.self)
            guardian.waiting.append(promise)
            return promise.futureResult
        }.get()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let promise = promise ?? context.eventLoop.makePromise()
        if unsent == 0 { progress = .now() }
        unsent += 1
        promise.futureResult.assumeIsolated().whenComplete { [self] _ in
            unsent -= 1
            progress = .now()
            if unsent == 0 { release() }
        }
        if timer == nil { arm(context) }
        context.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        release()
    }

    private func release() {
        let released = waiting
        waiting = []
        for promise in released { promise.succeed() }
    }

    private func arm(_ context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: progress + timeout) { [self] in
            timer = nil
            guard unsent > 0 else { return }
            guard NIODeadline.now() >= progress + timeout else { return arm(context) }
            // A reset, not a close: the kernel would keep the unsent bytes for minutes, trying
            // to deliver them to a client that is not reading.
            let reset = (context.channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
                ?? context.eventLoop.makeSucceededVoidFuture()
            reset.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}

/// Checks each parsed request before anything answers it: the `Host` (and, for the live-reload
/// socket, the `Origin`) must be one this server answers, else 403 with how to allow it; a
/// request the parser refuses gets a status that says why (405 for an unknown method, 431 for
/// an oversized header) instead of a bare 400. Every response says `nosniff`.
///
/// A refusal ends the connection: it is the last answer, after those to the requests before it
/// (pipelined on the same connection), and says `Connection: close`; nothing sent after the
/// refused request is read.
final class HTTPGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private struct Refusal {
        let status: HTTPResponseStatus
        let text: String
        var extra: [(String, String)] = []
    }

    private let policy: HostPolicy
    private let phase: HeadGuard
    /// A request was refused: everything after it is dropped.
    private var refusing = false
    /// Requests passed on whose answers have not ended yet.
    private var unanswered = 0
    /// The refusal waiting for those answers.
    private var waiting: Refusal?
    private var upgraded = false

    init(policy: HostPolicy, phase: HeadGuard) {
        self.policy = policy
        self.phase = phase
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refusing { return }
        if case .head(let head) = unwrapInboundIn(data) {
            if let refusal = refusal(of: head) {
                refuse(context, refusal)
                return
            }
            unanswered += 1
        }
        context.fireChannelRead(data)
    }

    /// Why `head` is not answered, or nil when it is.
    private func refusal(of head: HTTPRequestHead) -> Refusal? {
        let hosts = head.headers["host"]
        // RFC 9112, 3.2: more than one is a bad request (two parties could read different ones).
        if hosts.count > 1 { return Refusal(status: .badRequest, text: "plein serve: the request names more than one Host.\n") }
        let upgrade = head.headers["upgrade"].contains { $0.lowercased().contains("websocket") }
        // A target in absolute form names the host instead of the Host header (RFC 9112, 3.2.2).
        var host = hosts.first
        if !head.uri.hasPrefix("/") {
            guard let authority = HostPolicy.authority(ofTarget: head.uri) else {
                return Refusal(status: .badRequest, text: "plein serve: the request's target is neither a path nor an http:// address.\n")
            }
            host = hosts.isEmpty && head.version != .http1_0 ? nil : authority
        }
        guard let host else {
            // HTTP/1.0 may leave the host out; no browser does.
            if head.version == .http1_0, !upgrade { return nil }
            return Refusal(status: .badRequest, text: policy.refusal(hostHeader: nil, origin: nil))
        }
        let origin = head.headers["origin"].first
        if policy.allows(hostHeader: host), !upgrade || policy.allows(origin: origin, hostHeader: host) { return nil }
        return Refusal(status: .forbidden, text: policy.refusal(hostHeader: host, origin: upgrade ? origin : nil))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if refusing { return }
        switch parserError {
        case .invalidMethod:
            refuse(context, Refusal(status: .methodNotAllowed, text: "plein serve answers GET and HEAD only.\n", extra: [("Allow", "GET, HEAD")]))
        case .headerOverflow:
            refuse(context, Refusal(status: .requestHeaderFieldsTooLarge, text: "The request's headers are too large.\n"))
        default:
            refuse(context, Refusal(status: .badRequest, text: "The request could not be read: \(parserError).\n"))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            head.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            if head.status == .switchingProtocols {
                phase.becameWebSocket()
                upgraded = true
            }
        case .end:
            context.write(data, promise: promise)
            unanswered -= 1
            phase.requestAnswered()
            if unanswered == 0, let refusal = waiting {
                waiting = nil
                answer(context, refusal)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
        // After the 101 has gone out, the bytes are WebSocket frames: this handler leaves.
        if upgraded { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    /// Stops reading and answers once the requests before this one have been.
    private func refuse(_ context: ChannelHandlerContext, _ refusal: Refusal) {
        refusing = true
        if unanswered == 0 {
            answer(context, refusal)
        } else {
            waiting = refusal
        }
    }

    private func answer(_ context: ChannelHandlerContext, _ refusal: Refusal) {
        var headers = HTTPHeaders([
            ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", String(refusal.text.utf8.count)), ("Connection", "close"),
            ("X-Content-Type-Options", "nosniff"),
        ])
        headers.add(contentsOf: refusal.extra)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: refusal.status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: refusal.text)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
