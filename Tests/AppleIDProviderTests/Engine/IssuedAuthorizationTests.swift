import AppleIDProtocol
import Foundation
import Testing

@testable import AppleIDProvider

/// The engine answers an authorization with a typed value: what an approval issued, or the
/// refusal. Only the server's delivery writes wire parameters (`AuthorizationAnswerWireTests`).
@Suite("Engine: an authorization's typed answer")
struct IssuedAuthorizationTests {
    @Test("first authorization: code, id_token, state and user, typed; sub and real_user_status as signed")
    func firstAuthorization() async throws {
        let harness = try await ProviderHarness.make()
        let answer = try await harness.authorize(group: "com.a.app", hideEmail: false)
        let issued = try #require(answer.issued)
        #expect(issued.code.hasPrefix("c"))
        #expect(answer.state == "s")
        #expect(issued.user?.name?.firstName == "Maria")
        #expect(issued.user?.email == "Maria@Example.com", "the address as the account holds it")
        let claims = try harness.claims(answer)
        #expect(claims.codeHash == TokenHash.of(issued.code))
        #expect(claims.subject == issued.subject)
        #expect(claims.realUserStatus == issued.realUserStatus.rawValue)
        #expect(answer.refusal == nil)
    }

    @Test("a later authorization has no user; a refusal by redirect carries its state and no issued value")
    func laterAndRefused() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.authorize(group: "com.a.app", hideEmail: true)
        let later = try await harness.authorize(group: "com.a.app", hideEmail: true)
        #expect(try #require(later.issued).user == nil)
        #expect(later.state == "s")

        let refused = AuthorizationResponse.error(
            OAuthError(.userCancelledAuthorize, reason: "test"), redirectURI: "https://com.a.app/callback", responseMode: .formPost, state: "s2")
        #expect(refused.issued == nil)
        #expect(refused.state == "s2")
        #expect(refused.refusal?.code == .userCancelledAuthorize)
        #expect(refused.refusal?.description.contains("test") == true)
    }
}
