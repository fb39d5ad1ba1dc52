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
    func identityAssigningRelayAddress(accountID: String, teamID: TeamID) async throws -> (identity: TeamIdentity, isNew: Bool) {
        var identity = try await identity(accountID: accountID, teamID: teamID)
        guard identity.relayAddress == nil else { return (identity, false) }
        identity.relayAddress = makeRelayAddress()
        return (identity, true)
    }

    /// A new relay address of the relay domain (unsaved).
    func makeRelayAddress() -> String {
        random.string(length: 10, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789") + "@" + relayDomain
    }

    /// Apple's shape: six digits, 32 lowercase hex characters, four digits.
    func makeSubject() -> Subject { Self.subject(from: random) }

    package static func subject(from random: any RandomSource) -> Subject {
        Subject(rawValue: "\(random.digits(6)).\(random.hex(bytes: 16)).\(random.digits(4))")
    }
}
