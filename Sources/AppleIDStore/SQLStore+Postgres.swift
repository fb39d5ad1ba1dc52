import CoreMetrics
import Foundation
import Logging
import PostgresKit

extension SQLStore {
    /// Opens the PostgreSQL database of `url` (`postgres://user:password@host:5432/database`, with
    /// `?sslmode=disable|prefer|require`) through a connection pool and runs ``migrate()``. With
    /// `schema`, the store's tables live in that schema (created if missing): several servers or test
    /// runs can share a database.
    ///
    /// Concurrency: a pool of up to ``PostgresPoolSettings/maximumConnections`` connections
    /// (PostgresNIO's `PostgresClient`). Statements run on any free connection, transactions on one
    /// leased connection; several server processes may share the database, since single-use codes and
    /// every other atomic change are single statements with a `WHERE` precondition or transactions.
    /// When PostgreSQL restarts, the pool opens new connections; meanwhile, and when every connection
    /// stays busy past the lease timeout, calls throw ``StoreUnavailableError``. Pool usage is reported
    /// to `metrics`.
    ///
    /// With a `sealer`, signing keys are sealed at rest and any written earlier without one are sealed now.
    public static func postgres(
        url: String, schema: String? = nil, pool settings: PostgresPoolSettings = PostgresPoolSettings(), logger: Logger,
        sealer: SecretSealer? = nil, metrics: any MetricsFactory = MetricsSystem.factory
    ) async throws -> (store: SQLStore, shutdown: SQLStoreShutdown) {
        if let schema {
            guard schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw PostgresStoreError.badSchemaName(schema)
            }
        }
        let core = try SQLPostgresConfiguration(url: url).coreConfiguration
        let client = PostgresClient(configuration: try clientConfiguration(core, schema: schema, settings: settings), backgroundLogger: logger)
        // The pool works only while `run()` runs; the shutdown below cancels it and waits for it to end.
        let running = Task { await client.run() }
        let shutdown: SQLStoreShutdown = {
            running.cancel()
            await running.value
        }
        let pool = PostgresPool(
            client: client, settings: settings, usage: PoolUsage(maximumConnections: settings.maximumConnections, metrics: metrics),
            logger: logger)
        do {
            if let schema {
                try await pool.database.raw("CREATE SCHEMA IF NOT EXISTS \(ident: schema)").run()
            }
            let store = SQLStore(connections: pool, sealer: sealer)
            try await store.migrate()
            try await store.sealPlaintextSecrets(logger: logger)
            return (store, shutdown)
        } catch {
            try? await shutdown()
            throw error
        }
    }

    /// The pool's configuration from the URL's: the same server, credentials and TLS mode. The schema
    /// and the statement timeout are startup parameters, so they hold on every pooled connection.
    private static func clientConfiguration(
        _ core: PostgresConnection.Configuration, schema: String?, settings: PostgresPoolSettings
    ) throws -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch (core.tls.isEnforced, core.tls.isAllowed, core.tls.sslContext) {
            case (true, _, let context?): .require(context.configuration)
            case (false, true, let context?): .prefer(context.configuration)
            default: .disable
            }
        var configuration: PostgresClient.Configuration
        if let host = core.host {
            configuration = .init(
                host: host, port: core.port ?? 5432, username: core.username, password: core.password, database: core.database, tls: tls)
        } else if let socket = core.unixSocketPath {
            configuration = .init(unixSocketPath: socket, username: core.username, password: core.password, database: core.database)
        } else {
            throw PostgresStoreError.unsupportedEndpoint
        }
        configuration.options.maximumConnections = settings.maximumConnections
        configuration.options.connectTimeout = settings.connectTimeout
        var parameters = [
            ("statement_timeout", "\(settings.statementTimeout.components.seconds * 1000)"), ("application_name", settings.applicationName),
        ]
        if let schema { parameters.append(("search_path", schema)) }
        configuration.options.additionalStartupParameters = parameters
        return configuration
    }
}

public enum PostgresStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case badSchemaName(String)
    case unsupportedEndpoint

    public var description: String {
        switch self {
        case .badSchemaName(let name): "schema name \(name) may only hold ASCII letters, digits and _"
        case .unsupportedEndpoint: "the database URL names neither a host nor a socket"
        }
    }
}
