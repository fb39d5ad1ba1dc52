import AppleIDAdminAPI
import ArgumentParser

extension Users {
    /// `siwa users keychain …`: the passwords an Apple ID's device has saved for websites, which the
    /// native existing-credential flow offers to apps associated with their domains.
    struct Keychain: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "An Apple ID's iCloud Keychain passwords: add, list, remove.", subcommands: [Add.self, List.self, Remove.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Save a password for a website in the Apple ID's keychain.")
            @Argument(help: "The Apple ID.") var appleID: String
            @Option(help: "The website's domain, e.g. example.com.") var domain: String
            @Option(help: "The user name the website knows.") var user: String
            @Option(help: "The password.") var password: String
            @OptionGroup var connection: AdminConnection
            func run() async throws {
                try await connection.client().show(
                    .post, "/admin/users/\(AdminClient.segment(appleID))/keychain", PasswordOrder(user: user, password: password, domain: domain),
                    as: SavedPasswordView.self)
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the Apple ID's saved passwords (user names and domains).")
            @Argument(help: "The Apple ID.") var appleID: String
            @OptionGroup var connection: AdminConnection
            func run() async throws {
                try await connection.client().show(.get, "/admin/users/\(AdminClient.segment(appleID))/keychain", as: SavedPasswordList.self)
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove a saved password from the Apple ID's keychain.")
            @Argument(help: "The Apple ID.") var appleID: String
            @Option(help: "The website's domain.") var domain: String
            @Option(help: "The user name.") var user: String
            @OptionGroup var connection: AdminConnection
            func run() async throws {
                try await connection.client().show(
                    .delete, "/admin/users/\(AdminClient.segment(appleID))/keychain/\(AdminClient.segment(domain))/\(AdminClient.segment(user))",
                    as: NoAnswer.self)
            }
        }
    }
}
