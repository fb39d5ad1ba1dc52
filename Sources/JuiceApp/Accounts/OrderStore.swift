import Foundation
import SQLKit

/// An order of a juice: the account's own data, deleted with it.
struct Order: Sendable, Hashable, Decodable {
    var juice: String
    var createdAt: Double
}

struct OrderStore: Sendable {
    let database: JuiceDatabase
    let clock: @Sendable () -> Date

    /// Records the order; returns when it was placed.
    @discardableResult
    func place(juice: String, accountID: String) async throws -> Date {
        let now = clock()
        try await database.sql.raw(
            "INSERT INTO orders (account_id, juice, created_at) VALUES (\(bind: accountID), \(bind: juice), \(bind: now.timeIntervalSince1970))"
        ).run()
        return now
    }

    func orders(accountID: String) async throws -> [Order] {
        try await database.sql.raw("SELECT juice, created_at FROM orders WHERE account_id = \(bind: accountID) ORDER BY id DESC")
            .all(decoding: Order.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
