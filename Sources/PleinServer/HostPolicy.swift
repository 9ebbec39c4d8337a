import Foundation

/// Which `Host` and `Origin` headers the dev server answers.
///
/// A page on another site can make the user's browser send requests to the dev server under a
/// name it controls (DNS rebinding: `attacker.example` made to resolve to 127.0.0.1), and read
/// the answers, because to the browser they come from the attacker's own origin. Answering only
/// the names of the address being served closes that door; the live-reload socket is accepted
/// only from pages of the dev server itself.
public struct HostPolicy: Sendable, Equatable {
    /// Lowercased host names and addresses accepted, without port or brackets.
    public let names: Set<String>
    /// Whether any IP address is accepted (when listening on every interface: a rebinding
    /// attack needs a name, never an address).
    public let anyAddress: Bool

    /// - Parameters:
    ///   - host: the address given to `--host`.
    ///   - allowed: names added with `--allow-host`.
    public init(host: String, allowed: [String] = []) {
        var names: Set<String> = ["localhost", "127.0.0.1", "::1"]
        names.insert(Self.bare(host))
        for name in allowed { names.insert(Self.bare(name)) }
        self.names = names
        anyAddress = host == "0.0.0.0" || host == "::" || host == "[::]"
    }

    /// `[::1]` → `::1`, `Example.ORG.` → `example.org`.
    static func bare(_ name: String) -> String {
        var text = name.lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.hasSuffix("."), text.count > 1 { text.removeLast() }
        return text
    }

    /// The host part of a `Host` header (`localhost:1313`, `[::1]:1313`), or nil when malformed.
    static func hostPart(_ header: String) -> String? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { return nil }
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            let rest = value[value.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
            return bare(String(value[...close]))
        }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty else { return nil }
        if parts.count == 2, parts[1].isEmpty || !parts[1].allSatisfy(\.isNumber) { return nil }
        return bare(String(parts[0]))
    }

    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Whether a request naming `hostHeader` is answered. `*.localhost` always means this
    /// machine (RFC 6761).
    public func allows(hostHeader: String) -> Bool {
        guard let host = Self.hostPart(hostHeader) else { return false }
        return names.contains(host) || host.hasSuffix(".localhost") || (anyAddress && Self.isAddress(host))
    }

    /// Whether a page at `origin` may open the live-reload socket of a server reached as
    /// `hostHeader`: only the same origin. A missing `Origin` (not a browser) is accepted.
    ///
    /// An origin is `http://host[:port]` and nothing else (RFC 6454, 6.1): no user, path, query or
    /// escapes, which a lenient URL parser would read past (`http://evil.example@localhost`).
    public func allows(origin: String?, hostHeader: String) -> Bool {
        guard let origin else { return true }
        guard origin.hasPrefix("http://") else { return false }
        let authority = String(origin.dropFirst("http://".count))
        guard authority.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) }),
              let host = Self.hostPart(authority), let expected = Self.hostPart(hostHeader)
        else { return false }
        return host == expected && Self.portPart(authority) == Self.portPart(hostHeader)
    }

    /// The authority of a request target in absolute form (`http://localhost:1313/path`), which
    /// names the host instead of the `Host` header (RFC 9112, 3.2.2); nil for any other target
    /// than an `http` one with a host and no user.
    static func authority(ofTarget target: String) -> String? {
        guard target.lowercased().hasPrefix("http://") else { return nil }
        let rest = target.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        return String(authority)
    }

    /// The port of a `Host` header (80 when it names none).
    static func portPart(_ header: String) -> Int {
        let value = header.trimmingCharacters(in: .whitespaces)
        let afterHost = value.hasPrefix("[") ? value.split(separator: "]", maxSplits: 1).dropFirst().first.map(String.init) ?? "" : value
        guard let colon = afterHost.lastIndex(of: ":") else { return 80 }
        return Int(afterHost[afterHost.index(after: colon)...]) ?? -1
    }

    /// The plain-text answer to a refused request: what was refused and how to allow it.
    public func refusal(hostHeader: String?, origin: String?) -> String {
        if let origin, let hostHeader, allows(hostHeader: hostHeader) {
            return "plein serve: the live-reload connection is accepted only from its own pages, not from '\(origin)'.\n"
        }
        let name = hostHeader.flatMap(Self.hostPart) ?? hostHeader ?? ""
        if name.isEmpty { return "plein serve: the request names no host; send a Host header.\n" }
        return "plein serve: this server does not answer requests for '\(name)' (a page elsewhere may be trying to read it).\n"
            + "If you opened it yourself under that name, allow it: plein serve --allow-host \(name)\n"
    }
}
