import AppleIDStore

/// `SIWA_SQLITE_CHECKPOINTS=in-commit` makes `siwa serve` checkpoint SQLite's log inside commits, as
/// SQLite does by itself, instead of on a connection beside the writer (issue 38): to measure the
/// default against it on one binary (`Benchmarks/README.md`). PostgreSQL ignores it.
enum SQLiteCheckpointSwitch {
    static let environmentVariable = "SIWA_SQLITE_CHECKPOINTS"

    static func checkpoints(environment: [String: String]) throws -> SQLiteCheckpoints {
        guard let value = environment[environmentVariable] else { return .offTheWriter }
        guard let choice = SQLiteCheckpoints(rawValue: value) else {
            let known = SQLiteCheckpoints.allCases.map(\.rawValue).joined(separator: " or ")
            throw StartupError("\(environmentVariable)=\(value) is not a way to checkpoint SQLite's log; use \(known)")
        }
        return choice
    }
}
