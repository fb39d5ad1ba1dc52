import SQLKit

extension SQLiteSerialConnection {
    /// One transaction that reads before it writes, as one work item: `BEGIN`, `check`, then `decide`
    /// on the check's rows, on the connection's thread. When `decide` names a refusal, `ROLLBACK` and
    /// the refusal; else `writes` and `COMMIT`, and `nil`. Any failure rolls back and is thrown. The
    /// caller waits once, instead of once per statement; `decide` must be quick and pure (it runs on
    /// the thread every statement of the connection waits for).
    func checkedTransaction<Refusal: Sendable>(
        check: (any SQLExpression)?, decide: @escaping @Sendable ([any SQLRow]) throws -> Refusal?, writes: [any SQLExpression]
    ) async throws -> Refusal? {
        let check = try check.map { try statement($0) }
        let writes = try writes.map { try statement($0) }
        return try await withHandle { handle in
            do {
                try handle.run("BEGIN", binds: []) { _ in }
                var rows: [any SQLRow] = []
                if let check { try handle.run(check.sql, binds: check.binds) { rows.append($0) } }
                if let refusal = try decide(rows) {
                    try handle.run("ROLLBACK", binds: []) { _ in }
                    return refusal
                }
                for write in writes { try handle.run(write.sql, binds: write.binds) { _ in } }
                try handle.run("COMMIT", binds: []) { _ in }
                return nil
            } catch {
                try? handle.run("ROLLBACK", binds: []) { _ in }
                throw error
            }
        }
    }
}
