import ArgumentParser

/// `siwa keys …`: the server's own signing keys (those that sign id_tokens and notifications).
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The server's signing keys: show them, or rotate them now.", subcommands: [Show.self, Rotate.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the active key ID and the published key IDs.")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().run(.get, "/admin/keys") }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rotate now: the next key signs, the active key retires (published 7 more days), a new next key is published.")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().run(.post, "/admin/keys/rotate") }
    }
}
