import GRDB
import GRDBSQLite

/// A prepared statement bound and run through SQLite's own calls. A full save writes about
/// 190,000 rows at 10,000 reports (1.9 million at 100,000), and GRDB's arguments (an array of
/// converted values for every row) cost more than SQLite's insert itself.
struct RawStatement {
    private let statement: Statement

    init(_ db: Database, _ sql: String) throws {
        statement = try db.makeStatement(sql: sql)
    }

    /// One value for each `?`, in order.
    enum Value {
        case text(String)
        case blob([UInt8])
        case integer(Int64)
        case null
    }

    /// Runs the statement with these values.
    func run(_ first: Value, _ rest: Value...) throws {
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        try bind([first] + rest)
        let code = sqlite3_step(raw)
        guard code == SQLITE_DONE else { throw Self.error(code, statement) }
    }

    /// The first column, as an integer, of the first row the statement gives with these values;
    /// nil when it gives none.
    func integer(_ first: Value, _ rest: Value...) throws -> Int64? {
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        try bind([first] + rest)
        let code = sqlite3_step(raw)
        switch code {
        case SQLITE_ROW: return sqlite3_column_int64(raw, 0)
        case SQLITE_DONE: return nil
        default: throw Self.error(code, statement)
        }
    }

    /// A row the statement gives: its columns by index, from 0.
    struct Columns {
        fileprivate let raw: OpaquePointer

        func integer(_ column: Int32) -> Int64 {
            sqlite3_column_int64(raw, column)
        }

        func double(_ column: Int32) -> Double {
            sqlite3_column_double(raw, column)
        }

        func text(_ column: Int32) -> String {
            guard let text = sqlite3_column_text(raw, column) else { return "" }
            return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(raw, column))), as: UTF8.self)
        }

        /// Appends the column's bytes (a text's UTF-8, a blob's) to `storage`; where they are in it.
        func append(_ column: Int32, to storage: inout [UInt8]) -> Range<Int> {
            let start = storage.count
            // (The pointer first, then its length, as SQLite asks.)
            if let blob = sqlite3_column_blob(raw, column) {
                storage.append(contentsOf: UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(raw, column))))
            }
            return start..<storage.count
        }

        func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(raw, column))
            guard count > 0, let blob = sqlite3_column_blob(raw, column) else { return [] }
            return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
        }
    }

    /// Runs the statement with these values, giving each row it gives to `row`.
    func each(_ values: Value..., row: (Columns) throws -> Void) throws {
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        try bind(values)
        while true {
            let code = sqlite3_step(raw)
            switch code {
            case SQLITE_ROW: try row(Columns(raw: raw))
            case SQLITE_DONE: return
            default: throw Self.error(code, statement)
            }
        }
    }

    private func bind(_ values: [Value]) throws {
        let raw = statement.sqliteStatement
        for (offset, value) in values.enumerated() {
            let place = Int32(offset + 1)
            let code: Int32
            switch value {
            case .text(var text):
                code = text.withUTF8 { utf8 in
                    guard !utf8.isEmpty else { return sqlite3_bind_text(raw, place, "", 0, Self.transient) }
                    return utf8.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(raw, place, $0.baseAddress, Int32($0.count), Self.transient) }
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { sqlite3_bind_blob(raw, place, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), Self.transient) }
            case .integer(let number):
                code = sqlite3_bind_int64(raw, place, number)
            case .null:
                code = sqlite3_bind_null(raw, place)
            }
            guard code == SQLITE_OK else { throw Self.error(code, statement) }
        }
    }

    /// SQLite copies what is bound (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    private static func error(_ code: Int32, _ statement: Statement) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(statement.sqliteStatement))))
    }
}
