import AppleIDProtocol

/// What the private relay (`AppleIDRelay`) asks the engine as it routes mail: whose a relay address
/// is, and the Apple ID behind it. `package`: the relay keeps its own store and never reads this one.
extension AppleIDProvider {
    /// The team identity whose relay address is `relayAddress` (lower-case).
    package func teamIdentity(relayAddress: String) async throws -> TeamIdentity? {
        try await store.teamIdentity(relayAddress: relayAddress)
    }

    package func teamIdentity(accountID: String, teamID: TeamID) async throws -> TeamIdentity? {
        try await store.teamIdentity(accountID: accountID, teamID: teamID)
    }

    package func account(id: String) async throws -> AppleIDAccount? { try await store.account(id: id) }
}
