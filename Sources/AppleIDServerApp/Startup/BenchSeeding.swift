import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Logging

/// `siwa bench seed`: fills the database of a data directory (SQLite, or the PostgreSQL of
/// `--database`) with synthetic Apple IDs, each authorized for the demo app group with grants and
/// refresh tokens, through the store's bulk path.
public enum BenchSeeding {
    public struct Order: Sendable {
        public var dataDirectory = ".siwa"
        public var databaseURL: String?
        public var users = 1000
        public var grantsPerUser = 1
        /// The number of the first synthetic user, so that a second run adds to the first.
        public var firstUser = 0
        public var usersPerBatch = 1000

        public init() {}
    }

    /// Seeds `order`; `progress` hears the number of users written so far after each batch.
    public static func run(_ order: Order, logger: Logger, progress: @Sendable (Int) -> Void) async throws {
        guard order.users >= 0, order.grantsPerUser >= 0, order.firstUser >= 0, order.usersPerBatch > 0 else {
            throw StartupError("--users, --grants and --first are 0 or more, --batch more than 0")
        }
        let directory = URL(fileURLWithPath: order.dataDirectory).standardizedFileURL
        guard let facts = try DemoFiles(directory: directory).loadFacts() else {
            throw StartupError.dataDirectory(directory.path, "has no demo.json: start `siwa serve` once with it first")
        }
        let sealer = try StorageKey.sealer(directory: directory)
        let (store, shutdown) =
            if let url = order.databaseURL {
                try await SQLStore.postgres(url: url, logger: logger, sealer: sealer)
            } else {
                try await SQLStore.sqlite(path: directory.appendingPathComponent("siwa.sqlite").path, logger: logger, sealer: sealer)
            }
        do {
            let seed = ScaleSeed(
                teamID: facts.teamID, groupID: facts.bundleID, clientID: facts.servicesID, grantsPerUser: order.grantsPerUser,
                passwordHash: await Credentials.hashPassword("bench-user", cost: 10), now: Date(), random: SystemRandomSource())
            var start = order.firstUser
            let end = order.firstUser + order.users
            while start < end {
                let stop = min(start + order.usersPerBatch, end)
                try await store.insert(seed.batch(users: start..<stop))
                progress(stop - order.firstUser)
                start = stop
            }
        } catch {
            try? await shutdown()
            throw error
        }
        try await shutdown()
    }
}
