import AppleIDAdminAPI
import ArgumentParser

/// `siwa orgs …`: organizations of Apple School Manager or Apple Business Manager and their access
/// rule; `siwa users add --org` creates their Managed Apple IDs.
struct Orgs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Organizations (Managed Apple IDs at Work & School): list, add, show, allow, disallow, access rule, member changes.",
        subcommands: [List.self, Add.self, Show.self, Allow.self, Disallow.self, Rule.self, Federation.self, Member.self])

    enum Kind: String, ExpressibleByArgument, CaseIterable { case school, business }
    enum AccessRule: String, ExpressibleByArgument, CaseIterable {
        case allApps = "all-apps"
        case specificApps = "specific-apps"
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the organizations.")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().show(.get, "/admin/orgs", as: OrganizationList.self) }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an organization; prints its org_id.")
        @Argument(help: "The organization's name.") var name: String
        @Option(help: "school or business.") var kind: Kind = .school
        @Option(help: "A verified domain (repeatable).") var domain: [String] = []
        @Option(help: "all-apps or specific-apps.") var access: AccessRule = .allApps
        @Option(help: "An allowed app's primary App ID (repeatable; for specific-apps).") var allow: [String] = []
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            let order = OrganizationOrder(
                name: name, kind: kind.rawValue, verifiedDomains: domain, accessRule: access.rawValue, allowedApps: allow)
            try await connection.client().show(.post, "/admin/orgs", order, as: OrganizationView.self)
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an organization and its Managed Apple IDs.")
        @Argument(help: "The org_id.") var org: String
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await connection.client().show(.get, "/admin/orgs/\(AdminClient.segment(org))", as: OrganizationView.self) }
    }

    struct Allow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put an app on the organization's allow list.")
        @Argument(help: "The org_id.") var org: String
        @Argument(help: "The app's primary App ID.") var app: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .post, "/admin/orgs/\(AdminClient.segment(org))/allowed-apps", AppOrder(appID: app), as: OrganizationView.self)
        }
    }

    struct Disallow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take an app off the allow list: new sign-ins fail at once, existing grants are revoked within the withdrawal window.")
        @Argument(help: "The org_id.") var org: String
        @Argument(help: "The app's primary App ID.") var app: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .delete, "/admin/orgs/\(AdminClient.segment(org))/allowed-apps/\(AdminClient.segment(app))", as: OrganizationView.self)
        }
    }

    struct Rule: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the access rule: all-apps or specific-apps.")
        @Argument(help: "The org_id.") var org: String
        @Argument(help: "all-apps or specific-apps.") var access: AccessRule
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .put, "/admin/orgs/\(AdminClient.segment(org))/access-rule", RuleOrder(accessRule: access.rawValue), as: OrganizationView.self)
        }
    }

    struct Federation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Hand the organization's password step to its own identity provider: the server POSTs {org_id, username, password} as JSON to the URL, 2xx accepts (https, or http to loopback only). --off: the server's own password again."
        )
        @Argument(help: "The org_id.") var org: String
        @Argument(help: "The identity provider's check URL.") var url: String?
        @Flag(help: "Back to the server's own password.") var off = false
        @OptionGroup var connection: AdminConnection

        func validate() throws {
            guard (url == nil) == off else { throw ValidationError("give the URL, or --off") }
        }

        func run() async throws {
            try await connection.client().show(
                .put, "/admin/orgs/\(AdminClient.segment(org))/federation", EndpointChange(url: url), as: OrganizationView.self)
        }
    }

    struct Member: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a Managed Apple ID: its organization e-mail, or deactivate it.")
        @Argument(help: "The org_id.") var org: String
        @Argument(help: "The username.") var username: String
        @Option(help: "The organization e-mail ('' removes it).") var email: String?
        @Option(help: "Deactivated: on or off.") var deactivated: Switch?
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .patch, "/admin/orgs/\(AdminClient.segment(org))/users/\(AdminClient.segment(username))",
                MemberChange(email: email, deactivated: deactivated.map { $0 == .on }), as: MemberView.self)
        }
    }
}
