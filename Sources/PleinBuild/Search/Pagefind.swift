import Foundation
import PleinCore
import PleinRender
import PleinText

/// Pagefind (https://pagefind.app), the search indexer, driven as a service: `pagefind --service`
/// reads requests from standard input and answers on standard output, each a base64-encoded JSON
/// object followed by a comma. plein gives it the records it already knows (`AddRecord`), so
/// Pagefind parses no HTML, and takes the index's files back (`GetFiles`) to publish them itself.
struct Pagefind: Sendable {
    /// The executable.
    let executable: String

    /// The executable as a build store and a cache key know it: path, size and time.
    var identity: String {
        var info = stat()
        guard stat(executable, &info) == 0 else { return executable }
        return "\(executable) \(info.st_size) \(info.st_mtim.tv_sec)"
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The installed Pagefind: `PLEIN_PAGEFIND` (a path, or `none`), else `pagefind` on the
    /// `PATH`, else the binary of the `pagefind-bin` Python package (what `make site` installs).
    /// `BuildOptions.pagefind` looks once per command.
    ///
    /// Asking Python where its package is costs a Python start (40 ms; 90 ms behind pyenv's
    /// shims), on every build, an edit's and a no-op's among them: with `remembering`, the
    /// answer is kept in that file, for the environment that asked (its `PATH` and Python's
    /// variables), and Python is asked again only when that changes or the binary is gone.
    public static func locate(_ environment: [String: String], remembering file: String? = nil) -> String? {
        if let chosen = environment["PLEIN_PAGEFIND"] {
            return chosen == "none" || chosen.isEmpty ? nil : (access(chosen, X_OK) == 0 ? chosen : nil)
        }
        for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            for name in ["pagefind", "pagefind_extended"] where access("\(folder)/\(name)", X_OK) == 0 {
                return "\(folder)/\(name)"
            }
        }
        let asker = "python " + Hashing.sha256Hex(Array(pythonVariables.map { "\($0)=\(environment[$0] ?? "-")" }.joined(separator: "\n").utf8))
        if let file, let kept = try? String(contentsOfFile: file, encoding: .utf8) {
            let lines = kept.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // (Only where pagefind-bin keeps it: the cache folder is not trusted to name any program.)
            if lines.count == 2, lines[0] == asker, lines[1].hasPrefix("/"), lines[1].hasSuffix(Self.packaged), access(lines[1], X_OK) == 0 {
                return lines[1]
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import pagefind_bin, sys; sys.stdout.write(str(pagefind_bin.get_executable()))"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, !path.isEmpty, !path.contains("\n"), access(path, X_OK) == 0 else { return nil }
        // (Kept only where the cache folder already is: a first build makes it, the next keeps this.)
        if let file, path.hasPrefix("/"), path.hasSuffix(Self.packaged), access((file as NSString).deletingLastPathComponent, W_OK) == 0 {
            let temporary = file + ".\(getpid()).tmp"
            if FileManager.default.createFile(atPath: temporary, contents: Data((asker + "\n" + path).utf8)) {
                if rename(temporary, file) != 0 { unlink(temporary) }
            }
        }
        return path
    }

    /// Where `pagefind-bin` keeps Pagefind, in its package's folder.
    private static let packaged = "/pagefind_bin/pagefind"

    /// What decides which `python3` runs and where it finds its packages.
    private static let pythonVariables = ["PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_VERSION", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "HOME"]

    /// The files of one index over `records` (paths relative to the index's folder), in one
    /// service process. Records go in as given; Pagefind's output depends only on them.
    func index(_ records: [SearchRecord], language: String) -> Result<[(path: String, bytes: [UInt8])], Failure> {
        let service: Service
        do { service = try Service(executable) } catch { return .failure(error) }
        defer { service.stop() }
        do {
            let created = try service.ask(["type": "NewIndex", "config": ["force_language": language]])
            guard let id = created["index_id"] as? Int else { throw Failure(description: "Pagefind did not make an index") }
            // Records are sent from another thread while the answers are read here: neither pipe
            // may fill up while the other side waits.
            let requests = records.map { Self.addRecord($0, index: id, language: language) }
            let files = try service.askAll(requests, then: ["type": "GetFiles", "index_id": id])
            guard let list = files["files"] as? [[String: Any]] else { throw Failure(description: "Pagefind returned no files") }
            return .success(try list.map { file in
                guard let path = file["path"] as? String, let content = file["content"] as? String,
                      let bytes = Data(base64Encoded: content) else { throw Failure(description: "Pagefind returned a file plein cannot read") }
                return (path, Array(bytes))
            })
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }

    /// The `AddRecord` request of one record, as JSON (keys in byte order, each map's too).
    static func addRecord(_ record: SearchRecord, index: Int, language: String) -> [UInt8] {
        func map(_ values: [String: String]) -> JSON { .object(values.keys.sorted().map { ($0, .string(values[$0]!)) }) }
        let filters = JSON.object(record.filters.keys.sorted().map { key in (key, .array(record.filters[key]!.map(JSON.string))) })
        return JSON.object([
            ("content", .string(record.content)), ("filters", filters), ("index_id", .int(index)), ("language", .string(language)),
            ("meta", map(record.meta)), ("sort", map(record.sort)), ("type", .string("AddRecord")), ("url", .string(record.url)),
        ]).serializedBytes()
    }

    /// One `pagefind --service` process.
    private final class Service {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        var nextID = 1
        /// What was read and not yet taken: `buffer[position...]`.
        var buffer: [UInt8] = []
        var position = 0

        init(_ executable: String) throws(Failure) {
            // A Pagefind that dies must not take plein with it when plein writes to its pipe.
            signal(SIGPIPE, SIG_IGN)
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["--service"]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { throw Failure(description: "cannot run \(executable): \(error.localizedDescription)") }
        }

        func stop() {
            try? input.fileHandleForWriting.close()
            // Answers nobody read (after an error) would keep Pagefind waiting on a full pipe,
            // and this on Pagefind: read them away until it closes its end.
            while !output.fileHandleForReading.availableData.isEmpty {}
            process.waitUntilExit()
        }

        /// Sends one request and waits for its answer's payload.
        func ask(_ payload: [String: Any]) throws -> [String: Any] {
            let id = nextID
            nextID += 1
            try send(Self.message(id, JSONSerialization.data(withJSONObject: payload, options: .sortedKeys)))
            return try answer(to: id)
        }

        /// Sends `requests` (encoded payloads) and then `last`, and returns the answer to `last`
        /// once every request was answered without an error.
        func askAll(_ requests: [[UInt8]], then last: [String: Any]) throws -> [String: Any] {
            let first = nextID
            nextID += requests.count
            let lastID = nextID
            nextID += 1
            var stream = Data()
            for (offset, payload) in requests.enumerated() { stream.append(Self.message(first + offset, Data(payload))) }
            stream.append(Self.message(lastID, try JSONSerialization.data(withJSONObject: last, options: .sortedKeys)))
            let writing = DispatchGroup()
            // A failed write shows as Pagefind's missing answers.
            let bytes = stream
            DispatchQueue.global().async(group: writing) { [input] in try? input.fileHandleForWriting.write(contentsOf: bytes) }
            defer { writing.wait() }
            do {
                for id in first..<lastID { _ = try answer(to: id) }
                return try answer(to: lastID)
            } catch {
                // Nothing reads the answers after this one: stop Pagefind, so that neither it (on a
                // full pipe of answers) nor the writer (on a full pipe of requests) waits forever.
                // SIGKILL: a process started from a worker thread inherits its blocked SIGTERM.
                kill(process.processIdentifier, SIGKILL)
                throw error
            }
        }

        private static func message(_ id: Int, _ payload: Data) -> Data {
            var json = Data("{\"message_id\":\(id),\"payload\":".utf8)
            json.append(payload)
            json.append(contentsOf: Array("}".utf8))
            var message = json.base64EncodedData()
            message.append(UInt8(ascii: ","))
            return message
        }

        private func send(_ data: Data) throws {
            do { try input.fileHandleForWriting.write(contentsOf: data) } catch {
                throw Failure(description: "Pagefind stopped (\(error.localizedDescription))")
            }
        }

        /// Reads the next answer, which must be the one to `id`; an `Error` answer throws.
        private func answer(to id: Int) throws -> [String: Any] {
            var scanned = position
            while true {
                if let comma = buffer[scanned...].firstIndex(of: UInt8(ascii: ",")) {
                    let encoded = Data(buffer[position..<comma])
                    position = comma + 1
                    guard let json = Data(base64Encoded: encoded),
                          let message = try JSONSerialization.jsonObject(with: json) as? [String: Any],
                          let payload = message["payload"] as? [String: Any] else {
                        throw Failure(description: "Pagefind answered something plein cannot read")
                    }
                    if payload["type"] as? String == "Error" {
                        throw Failure(description: "Pagefind: \(payload["message"] as? String ?? "an error")")
                    }
                    guard message["message_id"] as? Int == id else { throw Failure(description: "Pagefind answered out of turn") }
                    return payload
                }
                buffer.removeFirst(position)
                position = 0
                scanned = buffer.count
                let more = output.fileHandleForReading.availableData
                if more.isEmpty {
                    throw Failure(description: "Pagefind stopped before it answered (exit status \(process.isRunning ? 0 : process.terminationStatus))")
                }
                buffer.append(contentsOf: more)
            }
        }
    }
}
