import Foundation
import PleinCore

extension Scaffold {
    /// How one set of CI files installs plein: the variables they set, the lines that install
    /// the package, and what they say about it. A vendored package is copied into the site's
    /// `.plein/` when the pin is made.
    struct PackagePin {
        let source: PackageSource
        /// The package's file in the repository, when it was copied there now.
        let vendoredFile: String?
        /// The variables, in the order they are written.
        let variables: [(key: String, value: String)]
        let architecture: String

        /// Every variable a pin may set: `repoint` changes only these.
        static let keys: Set<String> = ["PLEIN_VERSION", "PLEIN_PACKAGE", "PLEIN_PACKAGE_SHA256", "PLEIN_PACKAGE_URL", "PLEIN_RELEASE_URL", "PLEIN_PACKAGE_FILE"]

        init(_ source: PackageSource, folder: String) throws(Failure) {
            self.source = source
            let version = PleinVersion.number
            switch source {
            case .vendored(let package):
                guard Self.runners[package.architecture] != nil else {
                    throw Failure("the package is for \(package.architecture); the forges' runners take amd64 or arm64")
                }
                let (file, sha256) = try Self.vendor(package, into: folder)
                vendoredFile = file
                architecture = package.architecture
                variables = [("PLEIN_VERSION", package.version), ("PLEIN_PACKAGE", ".plein/" + package.fileName), ("PLEIN_PACKAGE_SHA256", sha256)]
            case .url(let url, let sha256):
                vendoredFile = nil
                architecture = "amd64"
                variables = [("PLEIN_VERSION", version), ("PLEIN_PACKAGE_URL", url)] + (sha256.map { [("PLEIN_PACKAGE_SHA256", $0.lowercased())] } ?? [])
            case .release:
                vendoredFile = nil
                architecture = "amd64"
                variables = [("PLEIN_VERSION", version), ("PLEIN_RELEASE_URL", "\(releasesURL)/download/v\(version)"),
                             ("PLEIN_PACKAGE_FILE", "plein_\(version)_amd64.deb")]
            }
        }

        /// The GitHub runner for each architecture plein's package is made for.
        static let runners = ["amd64": "ubuntu-24.04", "arm64": "ubuntu-24.04-arm"]

        var runner: String { Self.runners[architecture] ?? "ubuntu-24.04" }

        /// GitLab.com's shared runners of the package's architecture (`default:`'s tags).
        var gitlabTags: String { architecture == "arm64" ? "  tags: [saas-linux-small-arm64]\n" : "" }

        /// The `env:` or `variables:` lines.
        var environment: String {
            variables.map { "  \($0.key): \"\($0.value)\"" }.joined(separator: "\n")
        }

        /// The shell lines that install plein (in the repository's folder, after the checkout).
        var installLines: [String] {
            let install = "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends"
            switch source {
            case .vendored:
                return ["echo \"$PLEIN_PACKAGE_SHA256  $PLEIN_PACKAGE\" | sha256sum -c -", "\(install) \"./$PLEIN_PACKAGE\""]
            case .url(_, let sha256):
                return ["curl -fsSLo /tmp/plein.deb \"$PLEIN_PACKAGE_URL\""]
                    + (sha256 == nil ? [] : ["echo \"$PLEIN_PACKAGE_SHA256  /tmp/plein.deb\" | sha256sum -c -"])
                    + ["\(install) /tmp/plein.deb"]
            case .release:
                return ["curl -fsSLo \"/tmp/$PLEIN_PACKAGE_FILE\" \"$PLEIN_RELEASE_URL/$PLEIN_PACKAGE_FILE\"",
                        "curl -fsSLo /tmp/SHA256SUMS \"$PLEIN_RELEASE_URL/SHA256SUMS\"",
                        "(cd /tmp && grep \" $PLEIN_PACKAGE_FILE$\" SHA256SUMS | sha256sum -c -)",
                        "\(install) \"/tmp/$PLEIN_PACKAGE_FILE\""]
            }
        }

        /// The GitHub step that installs plein.
        var installStep: String {
            """
                  - name: Install plein
                    run: |
            \(block(installLines))
            """
        }

        /// What the header of every CI file says about where plein comes from.
        var comment: String {
            switch source {
            case .vendored:
                return """
                    # plein is installed from its Debian package in this repository (PLEIN_PACKAGE), after its
                    # SHA-256 is checked: the CI needs no download of plein. To update it, install the newer
                    # plein and run `plein new ci --vendor` again: it replaces the package and these lines.
                    """
            case .url(_, let sha256):
                return """
                    # plein is installed from the Debian package at PLEIN_PACKAGE_URL\(sha256 == nil ? "" : ", after its SHA-256 is checked").
                    # `plein new ci --vendor` carries the package in this repository instead.
                    """
            case .release:
                return """
                    # plein is installed from the Debian package of its release (PLEIN_RELEASE_URL), checked
                    # against the release's SHA256SUMS. `plein new ci --vendor` carries the package in this
                    # repository instead.
                    """
            }
        }

        enum Repointed { case changed, same, otherWay }

        /// Points a CI file written before at this package: the values of its pin's variables are
        /// replaced when it has the same ones (the same way of getting plein); nothing else changes.
        /// A file that is as plein wrote it stays so (`signed`: its fingerprint is made again).
        func repoint(_ path: String, signed: Bool = false) throws(Failure) -> Repointed {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw Failure("cannot read \(path)") }
            var lines = text.components(separatedBy: "\n")
            var found: Set<String> = []
            let wanted = Dictionary(variables, uniquingKeysWith: { first, _ in first })
            for (index, line) in lines.enumerated() {
                let indent = line.prefix { $0 == " " }
                guard indent.count == 2, let colon = line.firstIndex(of: ":") else { continue }
                let key = String(line[indent.endIndex..<colon])
                guard Self.keys.contains(key) else { continue }
                found.insert(key)
                if let value = wanted[key] { lines[index] = "  \(key): \"\(value)\"" }
            }
            guard found == Set(wanted.keys) else { return .otherWay }
            let joined = lines.joined(separator: "\n")
            let updated = signed ? Fingerprint.signed(Fingerprint.body(of: joined)) : joined
            guard updated != text else { return .same }
            do { try updated.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                throw Failure("cannot write \(path): \(error.localizedDescription)")
            }
            return .changed
        }

        /// Copies `package` to `.plein/` in `folder`, removing the packages of other versions
        /// there; the path written (nil when the same package is there already) and its SHA-256.
        static func vendor(_ package: OwnPackage, into folder: String) throws(Failure) -> (String?, String) {
            guard let bytes = FileManager.default.contents(atPath: package.path) else { throw Failure("cannot read \(package.path)") }
            let sha256 = Hashing.sha256Hex(Array(bytes))
            let target = folder + "/.plein/" + package.fileName
            let fm = FileManager.default
            for name in (try? fm.contentsOfDirectory(atPath: folder + "/.plein")) ?? []
            where name.hasPrefix("plein_") && name.hasSuffix(".deb") && name != package.fileName {
                try? fm.removeItem(atPath: folder + "/.plein/" + name)
            }
            if let existing = fm.contents(atPath: target), Hashing.sha256Hex(Array(existing)) == sha256 { return (nil, sha256) }
            do {
                try fm.createDirectory(atPath: folder + "/.plein", withIntermediateDirectories: true)
                try bytes.write(to: URL(fileURLWithPath: target), options: .atomic)
            } catch {
                throw Failure("cannot write \(target): \(error.localizedDescription)")
            }
            return (target, sha256)
        }
    }
}
