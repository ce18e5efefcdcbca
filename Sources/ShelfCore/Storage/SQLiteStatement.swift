import CSQLite
import Foundation

/// A prepared statement, reusable with new values: prepare once, run many times inside a transaction.
///
/// Every call takes its connection's lock, so a statement is as thread-safe as the connection it came from.
public final class SQLiteStatement {
    public var sql: String { compiled.sql }
    public let connection: SQLiteConnection
    private let compiled: CompiledStatement

    init(connection: SQLiteConnection, compiled: CompiledStatement) {
        self.connection = connection
        self.compiled = compiled
    }

    public static func summarize(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return words.count <= 48 ? words : String(words.prefix(47)) + "…"
    }

    deinit {
        // Under the connection's lock: the connection is opened without sqlite's own mutex, and the last reference
        // may go on a thread other than the one using the connection. Safe after close too: sqlite3_close_v2
        // keeps the connection alive until its statements are finalized.
        let compiled = self.compiled
        connection.locked { compiled.finalize() }
    }

    /// Runs the statement to its end with `parameters` bound in order, ignoring any rows.
    public func run(_ parameters: [any SQLiteValueConvertible] = []) throws {
        try connection.locked {
            try connection.requireOpen()
            try compiled.run(parameters, on: connection)
        }
    }

    /// Runs the statement with `parameters` and returns every row.
    public func query(_ parameters: [any SQLiteValueConvertible] = []) throws -> [SQLiteRow] {
        try connection.locked {
            try connection.requireOpen()
            return try compiled.query(parameters, on: connection)
        }
    }
}

/// sqlite's side of a prepared statement. It holds no reference to its connection, so that the connection can keep
/// compiled statements in its cache (a reference back would keep the connection alive forever); callers run it
/// under the connection's lock and finalize it exactly once.
struct CompiledStatement {
    let sql: String
    private let handle: OpaquePointer
    private let columns: SQLiteRow.Columns

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
        let count = Int(sqlite3_column_count(handle))
        self.columns = SQLiteRow.Columns(
            names: (0..<count).map { index in
                sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? "column\(index)"
            })
    }

    /// The statement's start, on one line, for messages: enough to recognise it, short enough for a terminal.
    var summary: String { SQLiteStatement.summarize(sql) }

    func finalize() { sqlite3_finalize(handle) }

    /// Runs the statement to its end with `parameters` bound in order, ignoring any rows.
    func run(_ parameters: [any SQLiteValueConvertible], on connection: SQLiteConnection) throws {
        try bind(parameters, on: connection)
        defer { reset() }
        while try step(on: connection) {}
    }

    /// Runs the statement with `parameters` and returns every row.
    func query(_ parameters: [any SQLiteValueConvertible], on connection: SQLiteConnection) throws -> [SQLiteRow] {
        try bind(parameters, on: connection)
        defer { reset() }
        var rows: [SQLiteRow] = []
        while try step(on: connection) { rows.append(currentRow(of: connection)) }
        return rows
    }

    private func bind(_ parameters: [any SQLiteValueConvertible], on connection: SQLiteConnection) throws {
        reset()
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == parameters.count else {
            throw connection.misuse("\(summary) takes \(expected) values, was given \(parameters.count)")
        }
        for (offset, parameter) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let code = bindValue(parameter.sqliteValue, at: index)
            guard code == SQLITE_OK else { throw connection.error(code, while: "binding value \(index) of \(summary)") }
        }
    }

    private func bindValue(_ value: SQLiteValue, at index: Int32) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(handle, index)
        case .integer(let number):
            return sqlite3_bind_int64(handle, index, number)
        case .real(let number):
            return sqlite3_bind_double(handle, index, number)
        case .text(var text):
            // Bound by length, so text with an embedded NUL survives; sqlite copies it (transient), straight from
            // the string's own UTF-8.
            return text.withUTF8 { buffer in
                // An empty buffer may have no address, and a NULL pointer would bind SQL NULL instead of "".
                guard let base = buffer.baseAddress, !buffer.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_bind_text64(
                        handle, index, $0, sqlite3_uint64(buffer.count), sqliteTransient,
                        UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            // Same reason as text: an empty blob must stay an empty blob, not NULL.
            guard !data.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return data.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(handle, index, buffer.baseAddress, sqlite3_uint64(buffer.count), sqliteTransient)
            }
        }
    }

    /// True when a row is ready; false when the statement is done.
    private func step(on connection: SQLiteConnection) throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code, while: "running \(summary)")
        }
    }

    /// Ready for the next run, holding nothing: no read snapshot, no copy of the last values (a cached statement
    /// would otherwise keep a large bound blob alive until its next use).
    private func reset() {
        // The error, if any, was already reported by step; reset only releases the statement's read snapshot.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    private func currentRow(of connection: SQLiteConnection) -> SQLiteRow {
        let values = (0..<Int32(columns.names.count)).map { column -> SQLiteValue in
            switch sqlite3_column_type(handle, column) {
            case SQLITE_INTEGER:
                return .integer(sqlite3_column_int64(handle, column))
            case SQLITE_FLOAT:
                return .real(sqlite3_column_double(handle, column))
            case SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(handle, column))
                guard let text = sqlite3_column_text(handle, column) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(handle, column))
                guard let bytes = sqlite3_column_blob(handle, column), count > 0 else { return .blob(Data()) }
                return .blob(Data(bytes: bytes, count: count))
            default:
                return .null
            }
        }
        return SQLiteRow(columns: columns, values: values, path: connection.path, label: connection.options.label)
    }
}

/// SQLITE_TRANSIENT is a macro Swift cannot import: the value -1 cast to a destructor, telling sqlite to copy.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
