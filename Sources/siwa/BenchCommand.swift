import AppleIDServer
import AppleIDServerApp
import ArgumentParser
import Foundation
import Logging

/// `siwa bench …`: tools for measuring the server.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Tools for measuring the server at scale.", subcommands: [Seed.self])

    struct Seed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add synthetic Apple IDs, each authorized for the demo app with grants and refresh tokens (the server may be stopped).")
        @Option(help: "How many Apple IDs to add.") var users = 1000
        @Option(help: "Grants (each with a refresh token) per Apple ID.") var grants = 1
        @Option(help: "The number of the first Apple ID (bench-<n>@bench.example.com), to add to an earlier run.") var first = 0
        @Option(help: "Apple IDs per transaction.") var batch = 1000
        @Option(help: "The server's data directory (demo.json, storage key, SQLite database).") var dataDir = ".siwa"
        @Option(help: "The server's PostgreSQL URL, when it does not use SQLite.") var database: String?

        func run() async throws {
            var order = BenchSeeding.Order()
            order.dataDirectory = dataDir
            order.databaseURL = database
            order.users = users
            order.grantsPerUser = grants
            order.firstUser = first
            order.usersPerBatch = batch
            let started = ContinuousClock.now
            do {
                try await BenchSeeding.run(order, logger: Logger(label: "siwa-bench")) { written in
                    if written % 100_000 == 0 || written == users {
                        FileHandle.standardError.write(Data("seeded \(written) Apple IDs\n".utf8))
                    }
                }
            } catch let error as StartupError {
                throw CLIError("siwa bench seed: \(error)")
            }
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print("seeded \(users) Apple IDs and \(users * grants) grants with refresh tokens in \(String(format: "%.1f", seconds)) s")
        }
    }
}
