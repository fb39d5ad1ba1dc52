import AppleIDProtocol
import AppleIDProvider
import Foundation

/// Synthetic Apple IDs, each authorized for one app group with a number of grants and a refresh
/// token per grant: the large database that `siwa bench seed` writes to measure the server at scale.
/// Rows are made in batches and written through the SQL store's bulk path (``BulkSeedStore``): a
/// benchmark's tool beside the store, not a rule of the engine.
public struct ScaleSeed: Sendable {
    /// The rows of a range of synthetic users.
    public struct Batch: Sendable {
        public var accounts: [AppleIDAccount] = []
        public var identities: [TeamIdentity] = []
        public var consents: [Consent] = []
        public var grants: [Grant] = []
        public var tokens: [TokenRecord] = []
    }

    public let teamID: TeamID
    public let groupID: ClientID
    public let clientID: ClientID
    public let grantsPerUser: Int
    /// One bcrypt hash for every synthetic user: hashing a million passwords would take hours and
    /// measure nothing the benchmark is about.
    public let passwordHash: String
    public let now: Date
    let random: any RandomSource

    public init(
        teamID: TeamID, groupID: ClientID, clientID: ClientID, grantsPerUser: Int, passwordHash: String, now: Date, random: any RandomSource
    ) {
        self.teamID = teamID
        self.groupID = groupID
        self.clientID = clientID
        self.grantsPerUser = grantsPerUser
        self.passwordHash = passwordHash
        self.now = now
        self.random = random
    }

    /// The synthetic users numbered `users` (`bench-<n>@bench.example.com`), their identities,
    /// consents, grants and refresh tokens. Numbers make the rows unique across batches and runs.
    public func batch(users: Range<Int>) -> Batch {
        var batch = Batch()
        for number in users {
            let accountID = "bench-\(number)"
            let email = "bench-\(number)@bench.example.com"
            let subject = Subject(rawValue: "bench.\(number)." + hex(random.bytes(count: 8)))
            batch.accounts.append(
                AppleIDAccount(
                    id: accountID, appleID: email, passwordHash: passwordHash, firstName: "Bench", lastName: "\(number)", email: email,
                    realUserStatus: .likelyReal, totpSecret: "JBSWY3DPEHPK3PXP", twoFactorEnabled: false, createdAt: now))
            batch.identities.append(TeamIdentity(accountID: accountID, teamID: teamID, subject: subject))
            batch.consents.append(
                Consent(accountID: accountID, groupID: groupID, grantedAt: now, scopes: [.name, .email], email: email, isPrivateEmail: false))
            for index in 0..<grantsPerUser {
                let grantID = "bench-\(number)-\(index)"
                batch.grants.append(
                    Grant(
                        id: grantID, accountID: accountID, teamID: teamID, groupID: groupID, clientID: clientID, subject: subject,
                        scopes: [.name, .email], email: email, isPrivateEmail: false, realUserStatus: .likelyReal, authTime: now,
                        createdAt: now))
                // The hash of a refresh token nobody holds: the row is what the index has to carry.
                batch.tokens.append(
                    TokenRecord(
                        tokenHash: hex(random.bytes(count: 32)), kind: .refresh, grantID: grantID, clientID: clientID, createdAt: now, expiresAt: nil)
                )
            }
        }
        return batch
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// The store's bulk path: a batch written with multi-row inserts, as one transaction.
public protocol BulkSeedStore: Sendable {
    func insert(_ batch: ScaleSeed.Batch) async throws
}
