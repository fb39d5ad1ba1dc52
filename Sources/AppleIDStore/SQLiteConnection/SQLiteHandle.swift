import NIOCore
import SQLiteNIO
// sqlite-nio's vendored SQLite, reached through SQLiteKit's dependency: the one copy of SQLite in the
// process (two copies on one file would drop each other's POSIX locks), with sqlite-nio's prefix.
import VaporCSQLite

/// One open `sqlite3` handle and its prepared statements, used from one thread only (its
/// ``SQLiteSerialConnection``'s). A statement is prepared the first time its text is run and kept:
/// the next run with the same text only binds and steps (issue 38: sqlite-nio 1.13 prepares every
/// statement anew, about 57 µs of each token request).
final class SQLiteHandle {
    /// How many statement texts are kept prepared. The store's statements are a few dozen texts; the
    /// ones built with a variable number of parameters (`IN (…)`) are many, so the oldest go first.
    static let cacheLimit = 128

    private var raw: OpaquePointer?
    private var cache: [String: OpaquePointer] = [:]
    private var cacheOrder: [String] = []
    /// How many statements were prepared since the handle opened (for tests).
    private(set) var preparations = 0

    /// How many prepared statements are kept now (for tests).
    var kept: Int { cache.count }

    /// The handle until it closes.
    var openHandle: OpaquePointer? { raw }

    /// Hears each commit's write-ahead log size (``onCommit(_:)``); kept as long as SQLite may call it.
    var commitListener: WALCommitListener?

    init(path: String) throws {
        SQLiteLibrary.initializeOnce()
        var handle: OpaquePointer?
        // The handle never leaves its thread, so SQLite's own mutexes would only cost.
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE
        let opened = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard opened == SQLITE_OK, let handle else {
            let message = handle.flatMap { sqlite_nio_sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open"
            sqlite_nio_sqlite3_close(handle)
            throw SQLiteStatementError(code: opened, message: "\(message) (\(path))")
        }
        raw = handle
        // Until the store's `PRAGMA busy_timeout` runs: a bounded wait, not sqlite-nio's endless one.
        sqlite_nio_sqlite3_busy_timeout(handle, 5000)
    }

    /// Runs `sql` with `binds`, handing each row to `onRow` as it is read.
    func run(_ sql: String, binds: [SQLiteData], onRow: (SQLiteStatementRow) -> Void) throws {
        guard let raw else { throw SQLiteStatementError(code: SQLITE_MISUSE, message: "the connection is closed") }
        let statement = try prepared(sql, on: raw)
        do {
            try bind(binds, to: statement, on: raw)
            try step(statement, on: raw, onRow: onRow)
        } catch {
            // A statement that failed is prepared again next time, from a clean state.
            forget(sql)
            throw error
        }
        // Ends its read (a reader's snapshot) and lets go of the bound values.
        sqlite_nio_sqlite3_reset(statement)
        sqlite_nio_sqlite3_clear_bindings(statement)
    }

    private func step(_ statement: OpaquePointer, on raw: OpaquePointer, onRow: (SQLiteStatementRow) -> Void) throws {
        var columns: SQLiteColumnNames?
        while true {
            let stepped = sqlite_nio_sqlite3_step(statement)
            if stepped == SQLITE_DONE { return }
            guard stepped == SQLITE_ROW else { throw error(stepped, on: raw) }
            // Read at the first row of each run: a statement prepared again after a migration may
            // have other columns (`SELECT *`).
            let names = columns ?? SQLiteColumnNames(of: statement)
            columns = names
            onRow(SQLiteStatementRow(columns: names, values: try (0..<Int32(names.count)).map { try value(at: $0, of: statement) }))
        }
    }

    /// Finalizes every kept statement, then closes the handle. Idempotent.
    func close() {
        for statement in cache.values { sqlite_nio_sqlite3_finalize(statement) }
        cache.removeAll()
        cacheOrder.removeAll()
        if let raw { sqlite_nio_sqlite3_close(raw) }
        raw = nil
        commitListener = nil
    }

    deinit { close() }

    private func prepared(_ sql: String, on raw: OpaquePointer) throws -> OpaquePointer {
        if let kept = cache[sql] { return kept }
        var statement: OpaquePointer?
        let result = sqlite_nio_sqlite3_prepare_v3(raw, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else {
            sqlite_nio_sqlite3_finalize(statement)
            throw error(result, on: raw)
        }
        preparations += 1
        if cacheOrder.count >= Self.cacheLimit {
            let oldest = cacheOrder.removeFirst()
            cache.removeValue(forKey: oldest).map { _ = sqlite_nio_sqlite3_finalize($0) }
        }
        cache[sql] = statement
        cacheOrder.append(sql)
        return statement
    }

    private func forget(_ sql: String) {
        guard let statement = cache.removeValue(forKey: sql) else { return }
        cacheOrder.removeAll { $0 == sql }
        sqlite_nio_sqlite3_finalize(statement)
    }

    private func bind(_ binds: [SQLiteData], to statement: OpaquePointer, on raw: OpaquePointer) throws {
        for (offset, bind) in binds.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32 =
                switch bind {
                case .blob(let value):
                    value.withUnsafeReadableBytes {
                        sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), Self.transient)
                    }
                case .float(let value): sqlite_nio_sqlite3_bind_double(statement, index, value)
                case .integer(let value): sqlite_nio_sqlite3_bind_int64(statement, index, Int64(value))
                case .null: sqlite_nio_sqlite3_bind_null(statement, index)
                case .text(let value):
                    sqlite_nio_sqlite3_bind_text64(statement, index, value, UInt64(value.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
                }
            guard result == SQLITE_OK else { throw error(result, on: raw) }
        }
    }

    /// A column's value, read as sqlite-nio reads it (so rows decode the same with either).
    private func value(at column: Int32, of statement: OpaquePointer) throws -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let text = sqlite_nio_sqlite3_column_text(statement, column) else {
                throw SQLiteStatementError(code: SQLITE_NOMEM, message: "no text for a text column")
            }
            return .text(String(cString: text))
        case SQLITE_BLOB:
            let length = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            var buffer = ByteBufferAllocator().buffer(capacity: length)
            if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
                buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: length))
            }
            return .blob(buffer)
        default: return .null
        }
    }

    private func error(_ code: Int32, on raw: OpaquePointer) -> SQLiteStatementError {
        SQLiteStatementError(code: code, message: String(cString: sqlite_nio_sqlite3_errmsg(raw)))
    }

    /// SQLite copies bound text and blobs before the bind returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// SQLite's answer to a statement that failed: its (extended) result code and message.
struct SQLiteStatementError: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    var description: String { "SQLite error \(code): \(message)" }
}

/// SQLite's one-time set-up of its globals, before the first handle of this process opens.
enum SQLiteLibrary {
    private static let initialized: Void = { _ = sqlite_nio_sqlite3_initialize() }()

    static func initializeOnce() { _ = initialized }
}
