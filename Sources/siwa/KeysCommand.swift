import AppleIDAdminAPI
import ArgumentParser

/// `siwa keys …`: the server's own signing keys (those that sign id_tokens and notifications).
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The server's signing keys: show them, or rotate them now.", subcommands: [Show.self, Rotate.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the active key ID and the published key IDs.")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().show(.get, "/admin/keys", as: KeyRingState.self) }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rotate now: the next key signs, the active key retires (published 7 more days), a new next key is published.")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().show(.post, "/admin/keys/rotate", as: KeyRingState.self) }
    }
}
