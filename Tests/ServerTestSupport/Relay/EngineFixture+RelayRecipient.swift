import AppleIDEmailSources
import AppleIDProvider
import Testing

/// The relay's recipient in the SMTP listener's tests, with or without the router.
extension EngineFixture {
    /// Maria hid her e-mail from the Juice team (``relayAddress``), whose e-mail source is
    /// example.com: mail from news@example.com to her relay address is taken.
    package func arrangeRelayRecipient() async throws {
        let account = try #require(try await provider.lookUpAccount(appleID: Self.maria.appleID))
        try await arrange.plant(
            TeamIdentity(accountID: account.id, teamID: Self.teamID, subject: "000001.relay.0001", relayAddress: Self.relayAddress))
        _ = try await provider.addEmailSources("example.com", teamID: Self.teamID)
    }
}
