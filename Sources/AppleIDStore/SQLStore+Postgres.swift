import Foundation
import Logging
import PostgresKit

extension SQLStore {
    /// Opens the PostgreSQL database of `url` (`postgres://user:password@host:5432/database`, with
    /// `?sslmode=disable|prefer|require`) and runs ``migrate()``. With `schema`, the store's tables
    /// live in that schema (created if missing): several servers or test runs can share a database.
    ///
    /// Concurrency: one connection, shared by every caller through the ``StatementGate`` exactly as
    /// with SQLite, so ``transaction(_:)`` keeps other statements out of a transaction. Several
    /// server processes may use the same database: single-use codes and every other atomic change
    /// are single statements with a `WHERE` precondition, which PostgreSQL applies atomically.
    ///
    /// With a `sealer`, signing keys are sealed at rest and any written earlier without one are sealed now.
    public static func postgres(
        url: String, schema: String? = nil, logger: Logger, sealer: SecretSealer? = nil
    ) async throws -> (store: SQLStore, shutdown: SQLStoreShutdown) {
        let configuration = try SQLPostgresConfiguration(url: url)
        let connection = try await PostgresConnection.connect(configuration: configuration.coreConfiguration, id: 1, logger: logger)
        do {
            let database = connection.sql(queryLogLevel: .trace)
            if let schema {
                guard schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                    throw PostgresStoreError.badSchemaName(schema)
                }
                try await database.raw("CREATE SCHEMA IF NOT EXISTS \(ident: schema)").run()
                try await database.raw("SET search_path TO \(ident: schema)").run()
            }
            let store = SQLStore(database: database, sealer: sealer)
            try await store.migrate()
            try await store.sealPlaintextSecrets(logger: logger)
            return (store, { try await connection.close() })
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

public enum PostgresStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case badSchemaName(String)

    public var description: String {
        switch self {
        case .badSchemaName(let name): "schema name \(name) may only hold ASCII letters, digits and _"
        }
    }
}
