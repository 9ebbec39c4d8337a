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
            // A live page answers the socket's pings every half idle timeout: a socket silent
            // for the whole of it is closed here, whether or not the ping loop got round to it.
            if upgraded { armIdle(context) }
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

    /// The connection became a WebSocket: its bytes are frames from now on, and one that sends
    /// none (not even a pong) for the idle timeout is closed (on a loaded machine the WebSocket
    /// library's own ping timeout was seen to leave such a socket open).
    func becameWebSocket() {
        upgraded = true
        if let context { armIdle(context) } else { timer?.cancel() }
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

