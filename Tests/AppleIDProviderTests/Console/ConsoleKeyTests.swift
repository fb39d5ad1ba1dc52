import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@Suite("Console keys: downloaded once, revoked keys refused")
struct ConsoleKeyTests {
    static let team: TeamID = "TEAMAAAAAA"
    static let servicesID: ClientID = "com.a.app.web"

    @Test("a key's .p8 downloads exactly once, and only to its own team")
    func downloadOnce() async throws {
        let harness = try await ProviderHarness.make()
        let key = try await harness.provider.createKey(teamID: Self.team, primaryAppID: "com.a.app", name: "Key")
        await #expect(throws: ConsoleError.self) { _ = try await harness.provider.downloadKey(key.id, teamID: "TEAMBBBBBB") }
        #expect(try await harness.provider.canDownloadKey(key.id))
        let pem = try await harness.provider.downloadKey(key.id, teamID: Self.team)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try await !harness.provider.canDownloadKey(key.id))
        await #expect(
            throws: ConsoleError.refused(
                "The key \(key.id) was already downloaded. A key can be downloaded only once; revoke it and create a new one.")
        ) {
            _ = try await harness.provider.downloadKey(key.id, teamID: Self.team)
        }
    }

    @Test("a key is made only for a primary App ID of the team; another team's reads as unknown")
    func keyForOwnPrimary() async throws {
        let harness = try await ProviderHarness.make()
        await #expect(throws: ConsoleError.notFound("Your team has no primary App ID com.b.app.")) {
            _ = try await harness.provider.createKey(teamID: Self.team, primaryAppID: "com.b.app", name: "Key")
        }
    }

    @Test("after revocation a client secret signed with the key is refused, even one verified before, with the reason in the request log")
    func revokedKeyRefused() async throws {
        let harness = try await ProviderHarness.make()
        let key = try await harness.provider.createKey(teamID: Self.team, primaryAppID: "com.a.app", name: "Key")
        let pem = try await harness.provider.downloadKey(key.id, teamID: Self.team)
        let secret = try await ClientSecretMinter(teamID: Self.team, keyID: key.id, privateKeyPEM: pem)
            .mint(clientID: Self.servicesID, issuedAt: ProviderHarness.now, lifetime: 3600)
        let revoke = RevocationRequest(clientID: Self.servicesID.rawValue, clientSecret: secret, token: "unknown", tokenTypeHint: "refresh_token")
        // Verified once: the secret is now in the verified-secret cache.
        guard case .success = await harness.provider.revoke(revoke) else {
            Issue.record("the secret was not accepted before revocation")
            return
        }
        let revoked = try await harness.provider.revokeKey(key.id, teamID: Self.team)
        #expect(revoked.revokedAt == ProviderHarness.now)
        guard case .failure(let error) = await harness.provider.revoke(revoke) else {
            Issue.record("a secret signed with a revoked key was accepted")
            return
        }
        #expect(error.code == .invalidClient)
        #expect(error.reason == "client secret kid \(key.id) names a key revoked at 2026-11-21T06:00:00Z; create a new key")
        // The refused secret did not prove the client: its entry is in the unproven bucket.
        let log = try await harness.provider.requestLog(clientID: Self.servicesID, teamID: Self.team)
        #expect(log.proven.map(\.outcome) == ["ok"])
        #expect(log.unproven.map(\.outcome) == ["invalid_client"])
        #expect(log.unproven.first?.reason == error.reason)
        #expect(log.unproven.first?.endpoint == .revoke)
        #expect(!(log.proven + log.unproven).contains { $0.reason.contains(secret) })
    }

    @Test("the request log keeps the client's last requests only, and not those of unknown clients")
    func requestLogBounded() async throws {
        var settings = RequestLogSettings()
        settings.length = 3
        let harness = try await ProviderHarness.make(requestLog: settings)
        for index in 0..<5 {
            harness.clock.advance(by: 1)
            _ = await harness.provider.token(
                TokenRequest(grantType: "authorization_code", clientID: Self.servicesID.rawValue, clientSecret: "x\(index)"))
        }
        _ = await harness.provider.token(TokenRequest(grantType: "authorization_code", clientID: "com.nobody.web", clientSecret: "x"))
        // Held for the next batch until a flush (the server flushes every 250 ms).
        #expect(try await harness.store.requestLog(clientID: Self.servicesID, proven: false, limit: 10).isEmpty)
        await harness.provider.flushRequestLog()
        let log = try await harness.store.requestLog(clientID: Self.servicesID, proven: false, limit: 10)
        #expect(log.count == 3)
        #expect(log.map(\.at) == [3, 2, 1].map { ProviderHarness.now.addingTimeInterval(TimeInterval($0 + 2)) })
        #expect(log.allSatisfy { $0.reason == "client secret: a compact JWS has 3 segments, found 1" })
        #expect(try await harness.store.requestLog(clientID: "com.nobody.web", proven: false, limit: 10).isEmpty)
    }

    @Test("a full batch is written by the request that fills it, and reading the log through the engine writes the rest")
    func requestLogBatchLimit() async throws {
        var settings = RequestLogSettings()
        settings.batchLimit = 2
        let harness = try await ProviderHarness.make(requestLog: settings)
        let refused = TokenRequest(grantType: "authorization_code", clientID: Self.servicesID.rawValue, clientSecret: "x")
        _ = await harness.provider.token(refused)
        #expect(try await harness.store.requestLog(clientID: Self.servicesID, proven: false, limit: 10).isEmpty)
        _ = await harness.provider.token(refused)
        #expect(try await harness.store.requestLog(clientID: Self.servicesID, proven: false, limit: 10).count == 2)
        _ = await harness.provider.token(refused)
        #expect(try await harness.provider.requestLog(clientID: Self.servicesID, teamID: Self.team).unproven.count == 3)
    }
}
