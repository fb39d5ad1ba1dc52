import AppleIDAdminAPI
import AppleIDProvider
import AppleIDServer
import AppleIDServerApp
import ArgumentParser
import Foundation

/// `siwa clock …`: move the server's clock (expiry tests).
struct Clock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The server's clock: show it, move it forward or back, set it, or reset it to the real time.",
        subcommands: [Show.self, Advance.self, SetTime.self, Reset.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the server's time and how far it is shifted.")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().show(.get, "/admin/clock", as: ClockView.self) }
    }

    struct Advance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move the server's clock forward, e.g. 301s, 2h, 61d, or back, e.g. -10s (`siwa clock reset` undoes it).")
        // Unrecognized inputs, so that `-10s` is the duration and not an unknown option.
        @Argument(parsing: .allUnrecognized, help: "How far: seconds, or a number followed by s, m, h or d; negative goes back.")
        var by: [String] = []
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            guard by.count == 1, let seconds = DurationText.seconds(by[0]), seconds != 0 else {
                throw ValidationError("give one duration other than 0, such as 301s, 2h, 61d or -10s (not \(by.joined(separator: " ")))")
            }
            try await connection.client().show(.post, "/admin/clock/advance", ClockAdvance(seconds: Double(seconds)), as: ClockView.self)
        }
    }

    struct SetTime: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set the server's clock to a time, e.g. 2026-12-01T09:00:00Z.")
        @Argument(help: "An ISO 8601 date and time.") var time: String
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().show(.post, "/admin/clock/set", ClockSetting(time: time), as: ClockView.self) }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Undo every shift: the server's clock is the real time again.")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().show(.post, "/admin/clock/reset", as: ClockView.self) }
    }
}

/// `siwa quirks`: per-client switches between Apple's current traffic and the documented variants.
struct Quirks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Per-client switches: string booleans, id_token lifetime, deletion event spelling, issuer, Apple as of a date.")
    @Argument(help: "The client ID.") var clientID: String
    @Option(help: "email_verified / is_private_email as strings: on or off.") var booleansAsStrings: Switch?
    @Option(help: "id_token lifetime in seconds.") var idTokenLifetime: Int?
    @Option(help: "account-delete or account-deleted (set on the primary App ID).") var deletionEvent: String?
    @Option(help: "The iss of this client's id_tokens.") var issuer: String?
    @Option(help: "YYYY-MM-DD: this client's tokens as Apple wrote them on that day (a switch set wins); today clears it.")
    var appleAsOf: String?
    @OptionGroup var connection: AdminConnection

    func validate() throws {
        if let appleAsOf, appleAsOf != "today", AppleDate(appleAsOf) == nil {
            throw ValidationError("--apple-as-of is \(AppleDate.expected), or today (the client's day cleared)")
        }
    }

    func run() async throws {
        let client = try connection.client()
        let order = QuirksOrder(
            booleansAsStrings: booleansAsStrings.map { $0 == .on }, idTokenLifetime: idTokenLifetime, deletionEvent: deletionEvent, issuer: issuer,
            appleAsOf: appleAsOf == "today" ? "" : appleAsOf)
        try await client.send(.put, "/admin/clients/\(AdminClient.segment(clientID))/quirks", order, as: NoAnswer.self)
        try await client.show(.get, "/admin/clients/\(AdminClient.segment(clientID))", as: ClientView.self)
    }
}

/// `siwa return-url`: register another Return URL for a Services ID.
struct ReturnURL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "return-url", abstract: "Add a Return URL to a Services ID.")
    @Argument(help: "The Services ID.") var clientID: String
    @Argument(help: "The Return URL (matched exactly).") var url: String
    @OptionGroup var connection: AdminConnection
    func run() async throws {
        try await connection.client().show(
            .post, "/admin/clients/\(AdminClient.segment(clientID))/return-urls", ReturnURLOrder(url: url), as: NoAnswer.self)
    }
}

/// `siwa transfer`: move an app group to another team (spec §17.4).
struct Transfer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Transfer an app group to another team: 60 days of transfer_sub and user migration begin.")
    @Argument(help: "The app group's primary App ID.") var group: String
    @Option(help: "The recipient's Team ID.") var to: String
    @OptionGroup var connection: AdminConnection
    func run() async throws {
        try await connection.client().show(.post, "/admin/transfers", TransferOrder(groupID: group, recipientTeamID: to), as: TransferView.self)
    }
}

/// `siwa reset`: the server back in its seeded state (development mode only), as a test starts.
struct Reset: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put the server back in its seeded state: the demo team, apps, keys and Apple IDs as the first start made them, nothing else."
    )
    @OptionGroup var connection: AdminConnection
    func run() async throws { try await connection.client().show(.post, "/admin/reset", as: NoAnswer.self) }
}
