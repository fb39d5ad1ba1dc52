import AppleIDProtocol
import Foundation

/// The reads behind pages and the admin API, each a fixed number of statements however many rows it
/// returns (no statement per row), and the account writes that belong together.
public protocol ReadModelStore: Sendable {
    /// The Apple ID unless it was deleted (or, a Managed Apple ID, deactivated by its organization): such
    /// an Apple ID is unknown everywhere, decided here once.
    func activeAccount(id: String) async throws -> AppleIDAccount?
    /// The Apple ID with this login (case-insensitive) unless it was deleted or deactivated.
    func activeAccount(appleID: String) async throws -> AppleIDAccount?
    /// The apps using the account (each consent with its app group's name) and its team identities
    /// (each with its team's name).
    func accountOverview(accountID: String) async throws -> AccountOverview
    /// Every Apple ID, deleted ones too, in ``AccountStore/accounts()`` order, each with its team identities.
    func accountListings() async throws -> [AccountListing]
    /// The newest `limit` messages (of the group, or of every group), newest first, each with its attempts.
    func deliveryLog(groupID: ClientID?, limit: Int) async throws -> [DeliveryLogEntry]
    /// The newest `limitPerGroup` messages of each group of `groupIDs`, newest first, each with its
    /// attempts: one page's delivery logs for every app group of a team, however many groups.
    func deliveryLog(groupIDs: [ClientID], limitPerGroup: Int) async throws -> [DeliveryLogEntry]
    /// How many messages are neither delivered nor abandoned, counted by the database.
    func pendingMessageCount() async throws -> Int
    /// Saves the account and, when `clearingSignInAttempts`, forgets its failed sign-in attempts (and so
    /// its lock) in the same transaction: both happen or neither does.
    func save(_ account: AppleIDAccount, clearingSignInAttempts: Bool) async throws
}

/// What `/account` shows: the apps using an Apple ID and its team identities (relay addresses).
public struct AccountOverview: Sendable, Hashable {
    public struct App: Sendable, Hashable {
        public var consent: Consent
        /// The app group's display name; `nil` when the group is gone.
        public var name: String?

        public init(consent: Consent, name: String?) {
            self.consent = consent
            self.name = name
        }
    }

    public struct Identity: Sendable, Hashable {
        public var identity: TeamIdentity
        /// The team's name; `nil` when the team is gone.
        public var teamName: String?

        public init(identity: TeamIdentity, teamName: String?) {
            self.identity = identity
            self.teamName = teamName
        }
    }

    /// Oldest consent first.
    public var apps: [App]
    /// By team ID.
    public var identities: [Identity]

    public init(apps: [App], identities: [Identity]) {
        self.apps = apps
        self.identities = identities
    }
}

/// An Apple ID with its team identities (its `sub` in each team that knows it).
public struct AccountListing: Sendable, Hashable {
    public var account: AppleIDAccount
    /// By team ID.
    public var identities: [TeamIdentity]

    public init(account: AppleIDAccount, identities: [TeamIdentity]) {
        self.account = account
        self.identities = identities
    }
}

/// An outbox message with its delivery attempts, oldest attempt first.
public struct DeliveryLogEntry: Sendable, Hashable {
    public var message: OutboxMessage
    public var attempts: [DeliveryAttempt]

    public init(message: OutboxMessage, attempts: [DeliveryAttempt]) {
        self.message = message
        self.attempts = attempts
    }
}
