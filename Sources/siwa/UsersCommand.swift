import AppleIDAdminAPI
import ArgumentParser

/// `siwa users …`: create, list and change Apple IDs, and perform their users' actions.
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apple IDs on a running server: list, add, change, stop using an app, relay forwarding, keychain, delete.",
        subcommands: [List.self, Code.self, Add.self, Change.self, StopUsing.self, Forwarding.self, Keychain.self, Delete.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the Apple IDs (with the current two-factor code).")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().show(.get, "/admin/users", as: AccountList.self) }
    }

    struct Code: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an Apple ID's current two-factor code (when development mode does not show it on the page).")
        @Argument(help: "The Apple ID.") var appleID: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            let users = try await connection.client().send(.get, "/admin/users", as: AccountList.self).users
            guard let user = users.first(where: { $0.appleID.lowercased() == appleID.lowercased() }) else {
                throw AdminFailure(message: "no Apple ID \(appleID); `siwa users list` shows them")
            }
            guard let code = user.currentSecondFactorCode else {
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

        var order: AccountOrder {
            AccountOrder(
                password: password, firstName: firstName, lastName: lastName, email: email, realUserStatus: realUserStatus,
                twoFactorEnabled: twoFactor.map { $0 == .on }, additionalEmails: alsoEmail.isEmpty ? nil : alsoEmail)
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
                let order = MemberOrder(
                    username: appleID, password: password, firstName: fields.firstName ?? "", lastName: fields.lastName ?? "", email: fields.email,
                    twoFactorEnabled: fields.twoFactor.map { $0 == .on })
                return try await connection.client().show(.post, "/admin/orgs/\(AdminClient.segment(org))/users", order, as: MemberView.self)
            }
            guard appleID.contains("@") else { throw CLIError("\(appleID) is not an e-mail address; an Apple ID is one, e.g. sam@example.com") }
            guard fields.password != nil else { throw ValidationError("--password is required") }
            var order = fields.order
            order.appleID = appleID
            try await connection.client().show(.post, "/admin/users", order, as: AccountView.self)
        }
    }

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change an Apple ID's name, e-mail, password, real-user status or two-factor.")
        @Argument(help: "The Apple ID.") var appleID: String
        @OptionGroup var fields: AccountFields
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(.patch, "/admin/users/\(AdminClient.segment(appleID))", fields.order, as: AccountView.self)
        }
    }

    struct StopUsing: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop using the Apple ID with an app group: tokens revoked, consent reset, consent-revoked sent.")
        @Argument(help: "The Apple ID.") var appleID: String
        @Option(help: "The app group's primary App ID.") var group: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .post, "/admin/users/\(AdminClient.segment(appleID))/stop-using", GroupAction(groupID: group), as: NoAnswer.self)
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
            try await connection.client().show(
                .post, "/admin/users/\(AdminClient.segment(appleID))/relay-forwarding", ForwardingChange(teamID: team, enabled: state == .on),
                as: NoAnswer.self)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete the Apple ID: everything revoked, account-delete sent to every app.")
        @Argument(help: "The Apple ID.") var appleID: String
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().show(.delete, "/admin/users/\(AdminClient.segment(appleID))", as: NoAnswer.self) }
    }
}

/// `on` / `off` on the command line.
enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
}
