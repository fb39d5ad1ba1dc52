import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// From the first security review: a code is checked against its client, `redirect_uri` and PKCE
/// verifier before it is consumed, so nobody else can burn it or revoke its grant.
@Suite("A code is consumed only by its own client")
struct CodeBindingTests {
    @Test("another client of the team, with a valid secret of its own, neither burns the code nor revokes its grant")
    func otherClientCannotBurn() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let otherSecret = try await server.clientSecret(for: TestServer.otherServicesID)
            for _ in 0..<2 {
                let stolen = try await RP.redeem(client, code: code, secret: otherSecret, clientID: TestServer.otherServicesID)
                #expect(stolen.status == .badRequest)
                #expect(try stolen.jsonStrings()["error"] == "invalid_grant")
            }
            let own = try await RP.redeem(client, code: code, secret: try await server.clientSecret())
            #expect(own.status == .ok, "the rightful client still redeems its code")
            let idToken = try #require(try own.tokens().idToken)
            #expect(try await RP.verify(idToken, client).audience == TestServer.servicesID.rawValue)
        }
    }

    @Test("a wrong redirect_uri or PKCE verifier does not burn the code")
    func wrongBindingDoesNotBurn() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let verifier = String(repeating: "v", count: 43)
            var order = RP.Order()
            order.codeChallenge = TokenHash.pkceChallenge(forVerifier: verifier)
            order.codeChallengeMethod = "S256"
            let code = try await RP.code(client, order)
            let secret = try await server.clientSecret()
            let wrongURI = try await RP.redeem(client, code: code, secret: secret, redirectURI: TestServer.secondRedirectURI, verifier: verifier)
            #expect(try wrongURI.jsonStrings()["error"] == "invalid_grant")
            let wrongVerifier = try await RP.redeem(client, code: code, secret: secret, verifier: String(repeating: "w", count: 43))
            #expect(try wrongVerifier.jsonStrings()["error"] == "invalid_grant")
            let right = try await RP.redeem(client, code: code, secret: secret, verifier: verifier)
            #expect(right.status == .ok)
        }
    }

    @Test("a replay by the code's own client still revokes what the code issued")
    func replayStillRevokes() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let secret = try await server.clientSecret()
            let first = try await RP.redeem(client, code: code, secret: secret).tokens()
            let replay = try await RP.redeem(client, code: code, secret: secret)
            #expect(try replay.jsonStrings()["error"] == "invalid_grant")
            let refreshed = try await RP.refresh(client, refreshToken: try #require(first.refreshToken), secret: secret)
            #expect(try refreshed.jsonStrings()["error"] == "invalid_grant")
        }
    }
}
