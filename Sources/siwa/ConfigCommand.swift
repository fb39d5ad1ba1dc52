import AppleIDConsole
import AppleIDProvider
import ArgumentParser
import EnvironmentFile
import Foundation

/// `siwa config …`: the declaration file of `siwa serve --config`.
struct Config: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The environment file of siwa serve --config: export today's state as one.", subcommands: [Export.self])

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the server's teams, App IDs, Services IDs, keys, Apple IDs, developers and organizations as a siwa.yaml.",
            discussion: "Passwords are stored hashed and never exported: a start from the file derives them from its seed.")
        @Flag(help: "Include the Apple IDs' TOTP secrets.") var withSecrets = false
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            // The answer is the engine's declaration model itself, which the file renders (no copy in AppleIDAdminAPI).
            let declaration = try await connection.client().send(
                .get, "/admin/config" + (withSecrets ? "?secrets=true" : ""), as: EnvironmentDeclaration.self)
            print(try EnvironmentFile.render(declaration), terminator: "")
        }
    }
}
