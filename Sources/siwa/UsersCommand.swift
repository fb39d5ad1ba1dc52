import ArgumentParser

/// `siwa users …`: create, list and change Apple IDs, and perform their users' actions.
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apple IDs on a running server: list, add, change, stop using an app, relay forwarding, keychain, delete.",
        subcommands: [List.self, Code.self, Add.self, Change.self, StopUsing.self, Forwarding.self, Keychain.self, Delete.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the Apple IDs (with the current two-factor code).")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().run(.get, "/admin/users") }
    }

    struct Code: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an Apple ID's current two-factor code (when development mode does not show it on the page).")
        @Argument(help: "The Apple ID.") var appleID: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            let answer = try await connection.client().call(.get, "/admin/users")
            let users = answer["users"] as? [[String: Any]] ?? []
            guard let user = users.first(where: { ($0["apple_id"] as? String)?.lowercased() == appleID.lowercased() }) else {
                throw AdminFailure(message: "no Apple ID \(appleID); `siwa users list` shows them")
            }
            guard let code = user["current_two_factor_code"] as? String else {
                throw AdminFailure(message: "\(appleID) has two-factor off: the password alone signs in")
            }
            print(code)
        }
    }

    /// The fields both `add` and `change` take.
    struct AccountFields: ParsableArguments {
        @Option(help: "Password.") var password: String?
        @Option(help: "Given name.") var firstName: String?
        @Option(help: "Family name.") var lastName: String?
        @Option(help: "The verified e-mail address shared with apps (default: the Apple ID).") var email: String?
        @Option(help: "real_user_status: 0 unsupported, 1 unknown, 2 likely real.") var realUserStatus: Int?
        @Option(help: "Two-factor step at sign-in: on or off.") var twoFactor: Switch?
        @Option(help: "A further address the user may share instead (repeatable; replaces the list).") var alsoEmail: [String] = []

        var body: [String: Any?] {
            [
                "password": password, "first_name": firstName, "last_name": lastName, "email": email, "real_user_status": realUserStatus,
                "two_factor_enabled": twoFactor.map { $0 == .on }, "additional_emails": alsoEmail.isEmpty ? nil : alsoEmail,
            ]
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an Apple ID.")
        @Argument(help: "The Apple ID (an e-mail address; with --org, the Managed Apple ID's username).") var appleID: String
        @Option(help: "A Managed Apple ID of this organization (org_id); --email is then the organization's address, optional.")
        var org: String?
        @OptionGroup var fields: AccountFields
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            if let org {
                guard let password = fields.password else { throw ValidationError("--password is required") }
                let body: [String: Any?] = [
                    "username": appleID, "password": password, "first_name": fields.firstName ?? "", "last_name": fields.lastName ?? "",
                    "email": fields.email, "two_factor_enabled": fields.twoFactor.map { $0 == .on },
                ]
                return try await connection.client().run(.post, "/admin/orgs/\(AdminClient.segment(org))/users", body)
            }
            guard appleID.contains("@") else { throw CLIError("\(appleID) is not an e-mail address; an Apple ID is one, e.g. sam@example.com") }
            guard fields.password != nil else { throw ValidationError("--password is required") }
            var body = fields.body
            body["apple_id"] = appleID
            try await connection.client().run(.post, "/admin/users", body)
        }
    }

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change an Apple ID's name, e-mail, password, real-user status or two-factor.")
        @Argument(help: "The Apple ID.") var appleID: String
        @OptionGroup var fields: AccountFields
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().run(.patch, "/admin/users/\(AdminClient.segment(appleID))", fields.body)
        }
    }

    struct StopUsing: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop using the Apple ID with an app group: tokens revoked, consent reset, consent-revoked sent.")
        @Argument(help: "The Apple ID.") var appleID: String
        @Option(help: "The app group's primary App ID.") var group: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().run(.post, "/admin/users/\(AdminClient.segment(appleID))/stop-using", ["group_id": group])
        }
    }

    struct Forwarding: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn Hide My Email forwarding for a team's relay address off (email-disabled) or on (email-enabled).")
        @Argument(help: "The Apple ID.") var appleID: String
        @Option(help: "The Team ID of the relay address.") var team: String
        @Argument(help: "on or off.") var state: Switch
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().run(
                .post, "/admin/users/\(AdminClient.segment(appleID))/relay-forwarding", ["team_id": team, "enabled": state == .on])
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete the Apple ID: everything revoked, account-delete sent to every app.")
        @Argument(help: "The Apple ID.") var appleID: String
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().run(.delete, "/admin/users/\(AdminClient.segment(appleID))") }
    }
}

/// `on` / `off` on the command line.
enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
}
