/// How the PostgreSQL store's connection pool behaves (`siwa serve --database-pool-size`,
/// `--database-wait`). Every wait is bounded: past it the store throws ``StoreUnavailableError``
/// and the server answers `503` with `Retry-After`.
public struct PostgresPoolSettings: Sendable, Hashable {
    /// The most connections this process opens to PostgreSQL. Several instances each open their own:
    /// keep the sum under the server's `max_connections`.
    public var maximumConnections: Int
    /// How long a statement waits for a free connection (or for a new one to open).
    public var leaseTimeout: Duration
    /// How long opening one connection may take.
    public var connectTimeout: Duration
    /// PostgreSQL's `statement_timeout` for every statement, so that no statement holds a connection
    /// (and a request) for longer.
    public var statementTimeout: Duration
    /// PostgreSQL's `application_name` of every connection: how `pg_stat_activity` names them.
    public var applicationName: String
    /// Whether the token, refresh and authorize paths' statements are prepared once per connection
    /// (`siwa serve --database-prepared-statements off` turns it off, as a pooler that hands each
    /// transaction another session needs).
    public var preparesStatements: Bool

    public init(
        maximumConnections: Int = 16, leaseTimeout: Duration = .seconds(5), connectTimeout: Duration = .seconds(3),
        statementTimeout: Duration = .seconds(10), applicationName: String = "siwa", preparesStatements: Bool = true
    ) {
        self.applicationName = applicationName
        self.preparesStatements = preparesStatements
        self.maximumConnections = maximumConnections
        self.leaseTimeout = leaseTimeout
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
    }
}
