import AppleIDAdminAPI
import ArgumentParser
import Foundation
import OwnerOnlyFiles

/// `siwa teams …`: developer teams and their Sign in with Apple keys.
struct Teams: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Developer teams and their keys.", subcommands: [List.self, Add.self, Country.self, Key.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the teams: Team ID and name, one per line (--json: as JSON).")
        @Flag(help: "Print the answer as JSON (with each team's kind).") var json = false
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            let answer = try await connection.client().send(.get, "/admin/teams", as: TeamList.self)
            if json { return AdminClient.print(answer) }
            for team in answer.teams {
                print("\(team.teamID) \(team.name)")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a team (a Team ID is made up unless given); `siwa apps add` registers its App IDs.")
        @Option(help: "The 10-character Team ID.") var teamID: String?
        @Option(help: "The team's name.") var name = "Team"
        @Option(help: "individual (10 Return URLs, 32 e-mail sources) or organization (100 and 100).") var kind = "organization"
        @Option(help: "Where the team is based: an ISO 3166-1 alpha-2 code (KR: Services IDs need a notification endpoint).")
        var country: String?
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .post, "/admin/teams", TeamOrder(teamID: teamID, name: name, kind: kind, country: country), as: TeamView.self)
        }
    }

    struct Country: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set where a team is based (ISO 3166-1 alpha-2, such as KR), or --clear it: Apple's country rules follow it.")
        @Argument(help: "The Team ID.") var teamID: String
        @Argument(help: "The two-letter country code.") var country: String?
        @Flag(help: "Remove the team's country.") var clear = false
        @OptionGroup var connection: AdminConnection

        func validate() throws {
            guard (country == nil) == clear else { throw ValidationError("give a country code, or --clear (not both)") }
        }

        func run() async throws {
            try await connection.client().show(
                .put, "/admin/teams/\(AdminClient.segment(teamID))/country", TeamCountryOrder(country: country), as: TeamView.self)
        }
    }

    struct Key: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a Sign in with Apple key for a team and primary App ID (see `siwa apps add`); writes the .p8.")
        @Argument(help: "The Team ID.") var team: String
        @Option(help: "The primary App ID the key is for.") var primaryAppID: String
        @Option(help: "Where to write the private key (default: AuthKey_<KeyID>.p8 in the current directory).") var out: String?
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            let answer = try await connection.client().send(
                .post, "/admin/teams/\(AdminClient.segment(team))/keys", KeyOrder(primaryAppID: primaryAppID), as: NewKey.self)
            let keyID = answer.keyID
            let pem = answer.privateKeyPEM
            let path = out ?? "AuthKey_\(keyID).p8"
            do {
                try PrivateFiles.create(Data(pem.utf8), at: URL(fileURLWithPath: path))
            } catch let error as PrivateFileError {
                throw AdminFailure(message: "cannot write the key (it is shown only this once): \(error); the PEM:\n\(pem)")
            }
            AdminClient.print(KeyFile(keyID: keyID, teamID: team, primaryAppID: primaryAppID, keyFile: path))
        }
    }
}

/// `siwa apps …`: a team's App IDs with Sign in with Apple (the console's Identifiers page).
struct Apps: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "App IDs with Sign in with Apple.", subcommands: [Add.self, Webcredentials.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an App ID with Sign in with Apple for a team: a primary App ID (its own app group), or one grouped with another.")
        @Option(help: "The Team ID.") var team: String
        @Option(help: "The App ID's bundle ID, e.g. com.example.app.") var bundleID: String
        @Option(help: "The description, shown as the app's name on the consent page (default: the bundle ID).") var description: String?
        @Option(help: "A primary App ID of the team to group this one with (default: this App ID is primary).") var groupedWith: String?
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .post, "/admin/teams/\(AdminClient.segment(team))/apps",
                AppIDOrder(bundleID: bundleID, description: description ?? bundleID, groupedWith: groupedWith), as: ClientView.self)
        }
    }

    struct Webcredentials: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set an App ID's associated domains for webcredentials: the websites whose keychain passwords the app is offered.")
        @Argument(help: "The App ID's bundle ID.") var bundleID: String
        @Argument(help: "The domains (example.com or webcredentials:example.com); none clears them.") var domains: [String] = []
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .put, "/admin/clients/\(AdminClient.segment(bundleID))/associated-domains", DomainsOrder(webcredentials: domains), as: NoAnswer.self)
        }
    }
}

/// What `siwa teams key` prints: the new key's identity and where its private half was written.
struct KeyFile: Encodable {
    let keyID: String
    let teamID: String
    let primaryAppID: String
    let keyFile: String

    enum CodingKeys: String, CodingKey {
        case keyID = "key_id"
        case teamID = "team_id"
        case primaryAppID = "primary_app_id"
        case keyFile = "key_file"
    }
}
