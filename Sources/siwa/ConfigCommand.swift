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
            abstract: "Print the server's teams, App IDs, Services IDs, keys, Apple IDs and developers as a siwa.yaml.",
            discussion: "Passwords are stored hashed and never exported: a start from the file derives them from its seed.")
        @Flag(help: "Include the Apple IDs' TOTP secrets.") var withSecrets = false
        @OptionGroup var connection: AdminConnection

        func run() async throws {
            let answer = try await connection.client().call(.get, "/admin/config" + (withSecrets ? "?secrets=true" : ""))
            let declaration = try JSONDecoder().decode(EnvironmentDeclaration.self, from: JSONSerialization.data(withJSONObject: answer))
            print(try EnvironmentFile.render(declaration), terminator: "")
        }
    }
}
