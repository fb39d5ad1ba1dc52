import AppleIDProtocol

/// Makes and finds the team-scoped `sub` and relay address of an account (spec §1, §11).
package struct TeamIdentities: Sendable {
    let store: any AccountStore
    let random: any RandomSource
    let relayDomain: String

    /// The account's identity for the team, created on first use. Stable from then on.
    func identity(accountID: String, teamID: TeamID) async throws -> TeamIdentity {
        if let existing = try await store.teamIdentity(accountID: accountID, teamID: teamID) { return existing }
        return try await store.insertTeamIdentity(
            TeamIdentity(accountID: accountID, teamID: teamID, subject: makeSubject()))
    }

    /// The identity with a relay address (the same address serves every app of the team); `isNew`
    /// when one was assigned now and is still to be saved (an approval saves it together with the
    /// rest of what it writes).
    /// `domain`: where a new address lives, the relay domain unless the client speaks as of a day that
    /// names another (``relayDomain(forClientAsOf:)``).
    func identityAssigningRelayAddress(
        accountID: String, teamID: TeamID, domain: String? = nil
    ) async throws -> (identity: TeamIdentity, isNew: Bool) {
        var identity = try await identity(accountID: accountID, teamID: teamID)
        guard identity.relayAddress == nil else { return (identity, false) }
        identity.relayAddress = makeRelayAddress(domain: domain)
        return (identity, true)
    }

    /// A new relay address of the relay domain, or of `domain` (unsaved).
    func makeRelayAddress(domain: String? = nil) -> String {
        random.string(length: 10, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789") + "@" + (domain ?? relayDomain)
    }

    /// Apple's newer relay domain (``AppleDatedChange/privateICloudRelay``).
    static let privateICloudDomain = "private.icloud.com"

    /// The domain of a new relay address for a client whose own day is `clientDay`: `private.icloud.com`
    /// since 2026-06-16 (`drift.relay-domain` shows one app such an address); otherwise, and for a
    /// client without a day of its own, the relay domain (`--relay-domain`). The relay finds an address
    /// by the whole address, so one under either domain reaches its user.
    func relayDomain(forClientAsOf clientDay: AppleDate?) -> String {
        guard let clientDay, AppleDatedChange.privateICloudRelay.isInEffect(asOf: clientDay) else { return relayDomain }
        return Self.privateICloudDomain
    }

    /// Apple's shape: six digits, 32 lowercase hex characters, four digits.
    func makeSubject() -> Subject { Self.subject(from: random) }

    package static func subject(from random: any RandomSource) -> Subject {
        Subject(rawValue: "\(random.digits(6)).\(random.hex(bytes: 16)).\(random.digits(4))")
    }
}
