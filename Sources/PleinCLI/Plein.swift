public import ArgumentParser
internal import CPleinSystem
import Foundation
import PleinBuild
import PleinCore
import PleinTheme

/// The `plein` command.
public struct Plein: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "plein",
        abstract: "Builds a community's website and feeds from Markdown and YAML records.",
        discussion: "plein help <topic> prints plein's documentation: \(BuiltInTheme.docTopics.joined(separator: ", ")).",
        // (`--version` is answered in `run`: the versions it names are found by loading libvips,
        // which no other command should pay for before it needs an image.)
        subcommands: [Build.self, Check.self, Serve.self, New.self, Find.self, SchemaCommand.self, Version.self],
        defaultSubcommand: Build.self
    )

    public init() {}

    /// Runs the command line and exits with plein's codes: 0 success, 1 content errors, 2 usage errors.
    public static func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
        // Line by line, also into a pipe or a log: `plein serve` reports as it goes.
        plein_line_buffered_stdout()
        plein_limit_malloc_arenas()
        if arguments == ["--version"] {
            print(PleinVersion.description)
            Foundation.exit(0)
        }
        // `plein help <topic>`: the documentation carried in the binary (`plein help <command>`
        // stays the argument parser's help of that command).
        if arguments.count == 2, arguments[0] == "help", let text = BuiltInTheme.docs[arguments[1]] {
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
            Foundation.exit(0)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch let usage as UsageError {
            Terminal.error("error: " + usage.message)
            Foundation.exit(2)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Foundation.exit(2)
        }
    }
}

/// `plein version`: the same as `plein --version`.
struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Prints plein's version and the versions of libvips and cmark-gfm it runs with.")
    func run() { print(PleinVersion.description) }
}

/// Where the site's content is: `--content`, else `content/` of the site the current folder is
/// in (found upwards, as git finds `.git`).
struct ContentLocation: ParsableArguments {
    @Option(name: .customLong("content"), help: "The content folder (default: content/ of the site this folder is in).")
    var given: String?

    var folder: String { given ?? SiteLayout.find()?.content ?? "content" }

    func validate() throws {
        try Self.requireFolder(folder, given: given != nil)
    }

    /// The content folder must exist (a usage error, exit status 2, otherwise).
    static func requireFolder(_ content: String, given: Bool) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: content, isDirectory: &isDirectory), isDirectory.boolValue else {
            if given { throw ValidationError("the content folder '\(content)' does not exist") }
            throw ValidationError("""
                no plein site here: neither this folder nor any above it holds content/site.yaml.
                Start one with `plein new site <folder>`, or name the content folder with --content.
                """)
        }
    }
}

/// Options shared by the commands that read a site.
struct SiteOptions: ParsableArguments {
    @OptionGroup var location: ContentLocation

    @Option(name: .customLong("templates"), help: """
        A whole theme of your own. Without it, plein's built-in theme is used, with the files of the site's \
        templates/ folder (if any) in place of its own.
        """)
    var givenTemplates: String?

    @Option(name: .customLong("output"), help: "The output folder (default: public/ beside content/).")
    var givenOutput: String?

    @Option(name: .customLong("base-url"), help: "Publish at this URL instead of site.yaml's base_url.")
    var baseURL: String?

    @Option(help: "The cache of derived images (default: .plein-cache beside the content folder).")
    var cache: String?

    @Option(name: .customLong("secret-file"), help: "A file holding the secret for message threads' addresses (else PLEIN_SECRET).")
    var secretFile: String?

    @Option(help: "A file of members-only groups' passphrases, a line each: '<group>: <passphrase>' (else PLEIN_PASSPHRASE_<GROUP>).")
    var passphrases: String?

    @Flag(name: .customLong("no-history"), help: "Do not read the content's git history (no \"edited\" dates, feed updates or sitemap lastmod).")
    var noHistory = false

    var content: String { location.folder }
    var templates: String { givenTemplates ?? SiteLayout.find()?.templates ?? "templates" }
    var output: String { givenOutput ?? SiteLayout.find()?.output ?? "public" }

    func validate() throws {
        if let baseURL, !(baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://")) {
            throw ValidationError("--base-url must start with http:// or https://")
        }
    }

    /// The thread secret: the file's contents without a final newline, or `PLEIN_SECRET`.
    func secret() throws -> [UInt8]? { try Self.secret(file: secretFile) }

    static func secret(file secretFile: String?) throws -> [UInt8]? {
        if let secretFile {
            guard let data = FileManager.default.contents(atPath: secretFile) else {
                throw UsageError(message: "cannot read the secret file '\(secretFile)'")
            }
            var bytes = Array(data)
            while let last = bytes.last, last == 10 || last == 13 { bytes.removeLast() }
            guard !bytes.isEmpty else { throw UsageError(message: "the secret file '\(secretFile)' is empty") }
            return bytes
        }
        return Terminal.environment["PLEIN_SECRET"].flatMap { $0.isEmpty ? nil : Array($0.utf8) }
    }

    /// The members-only groups' passphrases: the `PLEIN_PASSPHRASE_<GROUP>` variables, kept under
    /// their names (`SealingStage` looks a group up by both), then the lines of `PLEIN_PASSPHRASES`
    /// (one secret for them all, as GitHub passes secrets one by one) and of the `--passphrases`
    /// file: `<group>: <passphrase>`, `#` starting a comment line.
    func groupPassphrases() throws -> [String: String] { try Self.groupPassphrases(file: passphrases) }

    static func groupPassphrases(file passphrases: String?) throws -> [String: String] {
        var found: [String: String] = [:]
        for (name, value) in Terminal.environment where name.hasPrefix("PLEIN_PASSPHRASE_") && !value.isEmpty { found[name] = value }
        if let text = Terminal.environment["PLEIN_PASSPHRASES"] { try Self.passphrases(text, from: "PLEIN_PASSPHRASES", into: &found) }
        guard let passphrases else { return found }
        guard let data = FileManager.default.contents(atPath: passphrases), let text = String(data: data, encoding: .utf8) else {
            throw UsageError(message: "cannot read the passphrase file '\(passphrases)'")
        }
        try Self.passphrases(text, from: passphrases, into: &found)
        return found
    }

    static func passphrases(_ text: String, from source: String, into found: inout [String: String]) throws {
        var lineOf: [String: Int] = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let parts = trimmed.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw UsageError(message: "\(source):\(number + 1): write '<group>: <passphrase>'")
            }
            // A group given twice: which line was meant cannot be known (the last would win unsaid).
            if let first = lineOf[parts[0]] {
                throw UsageError(message: "\(source):\(number + 1): group '\(parts[0])' is given a passphrase on line \(first) already: keep one line")
            }
            lineOf[parts[0]] = number + 1
            found[parts[0]] = parts[1]
        }
    }

    func buildOptions() throws -> BuildOptions {
        var options = BuildOptions(content: content, templates: templates, output: output, baseURL: baseURL, cache: cache,
                                   environment: Terminal.environment)
        options.templatesOverBuiltInTheme = givenTemplates == nil
        options.history = !noHistory
        options.secret = try secret()
        options.passphrases = try groupPassphrases()
        return options
    }
}

/// A mistake in how plein was called, found while running: exit status 2, no usage text.
struct UsageError: Error {
    let message: String
}

/// Terminal output helpers: colour only on a terminal and without NO_COLOR.
enum Terminal {
    /// The environment plein was started with: read here, once, and passed down in
    /// `BuildOptions.environment` (the library reads none of its own).
    static let environment = ProcessInfo.processInfo.environment

    static var colorErrors: Bool {
        isatty(STDERR_FILENO) == 1 && environment["NO_COLOR"] == nil
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// What to do next, on standard error (standard output lists the files written).
    static func note(_ text: String) { error("next: " + text) }
}
