import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

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
