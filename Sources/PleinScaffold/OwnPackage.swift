import Foundation
import PleinCore

extension Scaffold {
    /// plein's own Debian package, for `plein new ci --vendor`: the one given, else the one plein
    /// can make or find for the binary that runs.
    ///
    /// - Installed by dpkg (from a release's package, or the one a site carries): plein packages
    ///   itself again from the files dpkg installed and the control fields dpkg keeps.
    /// - Built from source: the package `make dist` wrote into `dist/` of the source tree the
    ///   binary was built in (`<tree>/.build/…/plein`), when its version is this plein's.
    public struct OwnPackage: Sendable {
        /// The `.deb` file.
        public let path: String
        public let version: String
        /// The Debian architecture it is for (`amd64`, `arm64`).
        public let architecture: String
        /// Where it came from, in words for the user.
        public let origin: String
        /// A file this process made (removed by `discard`).
        let temporary: Bool

        /// The file name the site's repository keeps it under.
        public var fileName: String { "plein_\(version)_\(architecture).deb" }

        public func discard() {
            if temporary { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        }

        /// The package to vendor: `given` (a `.deb` of plein), else plein's own as described above.
        public static func find(given: String? = nil, executable: String = Self.executablePath()) throws(Failure) -> OwnPackage {
            if let given {
                let fields = try debFields(given)
                guard fields["Package"] == "plein" else { throw Failure("\(given) is a package of '\(fields["Package"] ?? "?")', not of plein") }
                return OwnPackage(path: given, version: fields["Version"] ?? "", architecture: fields["Architecture"] ?? "",
                                  origin: "the one given, \(given)", temporary: false)
            }
            if let installed = try installedPackage(executable: executable) { return installed }
            if let built = try sourceTreePackage(executable: executable) { return built }
            throw Failure("""
                plein cannot find its own package to put into the site's repository: this plein (\(executable)) was neither \
                installed from its Debian package nor built in a source tree with `make dist` done. Either run `make dist` \
                in plein's source folder and then this again, or give a package with --package FILE, or let the CI download one: \
                \(Self.otherWays)
                """)
        }

        /// The ways that need no package of plein's own, as `plein new ci` takes them.
        static let otherWays = "--package-url URL --package-sha256 HASH for one you host, or --release for plein's published release"

        /// The running binary's path, links resolved.
        public static func executablePath() -> String {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        }

        /// plein as dpkg installed it, packaged again into a temporary folder; nil when dpkg did
        /// not install this binary.
        static func installedPackage(executable: String) throws(Failure) -> OwnPackage? {
            guard let owner = try? command("dpkg-query", ["--search", executable]),
                  owner.hasPrefix("plein:") else { return nil }
            let status = try command("dpkg-query", ["--status", "plein"])
            var control: [String] = []
            var fields: [String: String] = [:]
            var keep = false
            for line in status.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if let first = line.first, first != " " {
                    let name = String(line.prefix { $0 != ":" })
                    keep = !["Status", "Conffiles", "Config-Version"].contains(name)
                    if keep { fields[name] = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
                }
                if keep && !line.isEmpty { control.append(line) }
            }
            guard let version = fields["Version"], let architecture = fields["Architecture"] else {
                throw Failure("dpkg keeps no version or architecture for plein (dpkg-query --status plein)")
            }
            guard version == PleinVersion.number else {
                throw Failure("dpkg says plein \(version) is installed, but this is plein \(PleinVersion.number): install it again, or give --package FILE")
            }
            let work = NSTemporaryDirectory() + "plein-package-" + UUID().uuidString
            let stage = work + "/stage"
            let fm = FileManager.default
            do {
                try fm.createDirectory(atPath: stage + "/DEBIAN", withIntermediateDirectories: true)
                for path in try command("dpkg-query", ["--listfiles", "plein"]).split(separator: "\n").map(String.init) {
                    var isDirectory: ObjCBool = false
                    guard path.hasPrefix("/"), fm.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                    let target = stage + path
                    try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try fm.copyItem(atPath: path, toPath: target)
                }
                try (control.joined(separator: "\n") + "\n").write(toFile: stage + "/DEBIAN/control", atomically: true, encoding: .utf8)
            } catch {
                try? fm.removeItem(atPath: work)
                throw Failure("cannot gather plein's installed files into \(stage): \(error.localizedDescription)")
            }
            let deb = work + "/plein_\(version)_\(architecture).deb"
            do {
                _ = try command("dpkg-deb", ["--root-owner-group", "-Zxz", "-z1", "--build", stage, deb])
            } catch {
                try? fm.removeItem(atPath: work)
                throw error
            }
            try? fm.removeItem(atPath: stage)
            return OwnPackage(path: deb, version: version, architecture: architecture,
                              origin: "plein \(version) as dpkg installed it, packaged again", temporary: true)
        }

        /// The package `make dist` wrote in the source tree this binary was built in.
        static func sourceTreePackage(executable: String) throws(Failure) -> OwnPackage? {
            var folder = (executable as NSString).deletingLastPathComponent
            while folder.count > 1 {
                if (folder as NSString).lastPathComponent == ".build" { break }
                folder = (folder as NSString).deletingLastPathComponent
            }
            guard (folder as NSString).lastPathComponent == ".build" else { return nil }
            let tree = (folder as NSString).deletingLastPathComponent
            let dist = tree + "/dist"
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dist)) ?? []).sorted()
            guard let name = names.first(where: { $0.hasPrefix("plein_\(PleinVersion.number)_") && $0.hasSuffix(".deb") }) else {
                throw Failure("""
                    this plein was built from source in \(tree), where `make dist` has not made plein \(PleinVersion.number)'s package yet: \
                    run `make dist` there, then this again; or give a package with --package FILE, or let the CI download one: \
                    \(Self.otherWays)
                    """)
            }
            let path = dist + "/" + name
            let fields = try debFields(path)
            return OwnPackage(path: path, version: fields["Version"] ?? PleinVersion.number, architecture: fields["Architecture"] ?? "",
                              origin: "the one `make dist` wrote, \(path)", temporary: false)
        }

        /// A package's control fields, read by dpkg-deb.
        static func debFields(_ path: String) throws(Failure) -> [String: String] {
            guard FileManager.default.isReadableFile(atPath: path) else { throw Failure("cannot read the package \(path)") }
            let text = try command("dpkg-deb", ["--field", path, "Package", "Version", "Architecture"])
            var fields: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            guard fields["Package"] != nil, fields["Version"] != nil, fields["Architecture"] != nil else {
                throw Failure("\(path) is not a Debian package (dpkg-deb reads no Package, Version and Architecture in it)")
            }
            return fields
        }

        /// Runs a program found on PATH; its standard output, or a failure with what it said on
        /// standard error (kept in a file, so that neither stream can block the other).
        static func command(_ name: String, _ arguments: [String]) throws(Failure) -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [name] + arguments
            let errorPath = NSTemporaryDirectory() + "plein-\(name)-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: errorPath) }
            guard FileManager.default.createFile(atPath: errorPath, contents: nil), let errors = FileHandle(forWritingAtPath: errorPath) else {
                throw Failure("cannot write \(errorPath)")
            }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = errors
            do { try process.run() } catch { throw Failure("cannot run \(name): \(error.localizedDescription)") }
            let out = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            try? errors.close()
            guard process.terminationStatus == 0 else {
                let said = (try? String(contentsOfFile: errorPath, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                throw Failure("\(name) \(arguments.joined(separator: " ")) failed\(said.isEmpty ? "" : ": " + said)"
                              + (process.terminationStatus == 127 ? " (is it installed? it comes with dpkg, on Debian and Ubuntu)" : ""))
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
