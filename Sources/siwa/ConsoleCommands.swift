import AppleIDAdminAPI
import ArgumentParser
import Foundation

/// `siwa developers …`: the people who sign in to the console, and their teams.
struct Developers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Developer accounts of the console: invite someone to a team; the operator's direct create and add.",
        subcommands: [Invite.self, Invitations.self, Add.self, AddToTeam.self])

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Invite a developer to a team by e-mail: prints the one-time link they open to set their own password or sign in.")
        @Argument(help: "The Team ID.") var team: String
        @Option(help: "The developer's e-mail address.") var email: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .post, "/admin/teams/\(AdminClient.segment(team))/invitations", InvitationOrder(email: email), as: InvitationSummary.self)
        }
    }

    struct Invitations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a team's invitations waiting to be accepted (never their links).")
        @Argument(help: "The Team ID.") var team: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(.get, "/admin/teams/\(AdminClient.segment(team))/invitations", as: PendingInvitationList.self)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The operator's direct path: create a developer who signs in to /console, in one or more teams, with a password you choose.")
        @Option(help: "The e-mail address the developer signs in with.") var email: String
        @Option(help: "The developer's name.") var name: String?
        @Option(help: "The password (8 characters or more).") var password: String
        @Option(name: .customLong("team"), help: "A Team ID the developer belongs to (repeat for several).") var teams: [String]
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .post, "/admin/developers", DeveloperOrder(email: email, name: name, password: password, teamIDs: teams), as: DeveloperSummary.self)
        }
    }

    struct AddToTeam: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-to-team",
            abstract:
                "The operator's direct path: add a developer to a team without asking them (an individual team takes no second member); creates the developer when given a password. People invite people: see `invite`."
        )
        @Argument(help: "The Team ID.") var team: String
        @Option(help: "The developer's e-mail address.") var email: String
        @Option(help: "For a new developer: the name.") var name: String?
        @Option(help: "For a new developer: the first password.") var password: String?
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .post, "/admin/teams/\(AdminClient.segment(team))/developers", DeveloperOrder(email: email, name: name, password: password),
                as: DeveloperSummary.self)
        }
    }
}

/// `siwa email-sources …`: the senders registered for a team's private relay, and their SPF check.
struct EmailSources: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "email-sources", abstract: "E-mail sources of the private relay: add them, check their SPF records.",
        subcommands: [Add.self, Check.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add domains or addresses (comma-delimited, as the portal takes them).")
        @Argument(help: "The Team ID.") var team: String
        @Argument(help: "Domains, subdomains or e-mail addresses, separated by commas.") var sources: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .post, "/admin/teams/\(AdminClient.segment(team))/email-sources", SourcesOrder(sources: sources), as: SourceList.self)
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Look up each source's SPF record now and print every status.")
        @Argument(help: "The Team ID.") var team: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(.post, "/admin/teams/\(AdminClient.segment(team))/email-sources/check", as: SourceList.self)
        }
    }
}
