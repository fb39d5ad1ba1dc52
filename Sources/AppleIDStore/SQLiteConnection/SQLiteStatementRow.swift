import SQLKit
import SQLiteKit
import SQLiteNIO
import VaporCSQLite

/// The column names of one statement's result, shared by its rows.
struct SQLiteColumnNames: Sendable {
    let names: [String]
    let offsets: [String: Int]

    var count: Int { names.count }

    init(of statement: OpaquePointer) {
        let count = sqlite_nio_sqlite3_column_count(statement)
        names = (0..<count).map { column in sqlite_nio_sqlite3_column_name(statement, column).map { String(cString: $0) } ?? "" }
        // The first of two equal names wins, as with sqlite-nio.
        offsets = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// One row of a ``SQLiteHandle`` statement, decoded as sqlite-kit decodes sqlite-nio's rows.
struct SQLiteStatementRow: SQLRow, Sendable {
    let columns: SQLiteColumnNames
    let values: [SQLiteData]

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.offsets[column] != nil }

    func decodeNil(column: String) throws -> Bool { value(column) == nil || value(column) == .null }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let value = value(column) else { throw MissingSQLiteColumn(column: column) }
        return try SQLiteDataDecoder().decode(D.self, from: value)
    }

    private func value(_ column: String) -> SQLiteData? { columns.offsets[column].map { values[$0] } }
}

/// A row was asked for a column its statement does not return.
struct MissingSQLiteColumn: Error, CustomStringConvertible {
    let column: String

    var description: String { "no column \"\(column)\" in the row" }
}
