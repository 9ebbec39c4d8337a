import Foundation
public import PleinCore

extension Scaffold {
    /// The integrity hash of the CMS's script, computed from the file itself, fetched once on the
    /// owner's machine (`plein new cms`, `plein new cms --update`) so that every member's browser
    /// then refuses a script that is not that one.
    public enum ScriptIntegrity {
        /// The hash of `editor`'s script at `version`: fetched with curl from the CDN the page loads
        /// it from (or from `PLEIN_CMS_MIRROR` in `environment`, a mirror of unpkg.com's paths: a
        /// local server in the tests, a company's mirror), at most 60 seconds. The error says why
        /// in words a site's owner can act on: offline, not found, not a script, curl missing.
        public static func fetch(_ editor: CMSSettings.Editor, version: String, environment: [String: String]) -> Result<String, Failure> {
            let published = editor.scriptURL(version: version)
            var url = published
            if let mirror = environment["PLEIN_CMS_MIRROR"], !mirror.isEmpty, published.hasPrefix(unpkg) {
                url = (mirror.hasSuffix("/") ? String(mirror.dropLast()) : mirror) + published.dropFirst(unpkg.count)
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // (-f: an HTTP error is a failure, not a page to hash; -L: the CDN may redirect, and
            // the browser follows it to the same bytes.)
            process.arguments = ["curl", "--silent", "--show-error", "--fail", "--location", "--max-time", "60", "--connect-timeout", "15", "--proto", "=https,http",
                                 "--max-filesize", String(maximumSize), url]
            var curlEnvironment = environment
            curlEnvironment["LC_ALL"] = "C"
            process.environment = curlEnvironment
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            do { try process.run() } catch {
                return .failure(Failure("curl is not installed, so the script could not be fetched to compute its hash"))
            }
            // (Both pipes read at once: a full one would stop curl.)
            let errorHandle = errors.fileHandleForReading
            let said = Background { errorHandle.readDataToEndOfFile() }
            let bytes = Array(output.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            let message = String(decoding: said.value, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if process.terminationReason == .exit, process.terminationStatus == 127 {
                return .failure(Failure("curl is not installed, so the script could not be fetched to compute its hash"))
            }
            guard process.terminationStatus == 0 else {
                let reason = message.replacingOccurrences(of: "curl: ", with: "")
                let offline = [6, 7, 28, 35].contains(process.terminationStatus)
                return .failure(Failure("\(url) could not be fetched (\(reason.isEmpty ? "curl exited with \(process.terminationStatus)" : reason))"
                                        + (offline ? "; is this machine offline?" : "")))
            }
            // A page where a script should be (a CDN's or a captive portal's) is not hashed.
            let start = bytes.prefix(512).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
            guard bytes.count > 64, start.first != UInt8(ascii: "<") else {
                return .failure(Failure("\(url) did not answer with a script (\(bytes.count) bytes\(start.first == UInt8(ascii: "<") ? " of HTML" : ""))"))
            }
            return .success(Hashing.subresourceIntegrity(bytes))
        }

        static let unpkg = "https://unpkg.com"
        /// The CMSs' scripts are a few megabytes; more is not the script.
        static let maximumSize = 64 << 20
    }
}
