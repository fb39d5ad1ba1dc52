import AppleIDProtocol
import Foundation
import Testing

@testable import AppleIDProvider

/// The engine answers an approval with a typed value; the wire parameters are made from it, so the
/// two cannot disagree, and no caller outside the delivery reads the answer by wire name.
@Suite("Engine: an approval's typed answer and its wire form agree")
struct IssuedAuthorizationTests {
    @Test("first authorization: code, id_token, state and user, typed and on the wire in Apple's order; sub and real_user_status as signed")
    func firstAuthorization() async throws {
        let harness = try await ProviderHarness.make()
        let answer = try await harness.authorize(group: "com.a.app", hideEmail: false)
        let issued = try #require(answer.issued)
        #expect(answer.parameters.map(\.name) == ["code", "id_token", "state", "user"])
        #expect(answer["code"] == issued.code)
        #expect(answer["id_token"] == issued.idToken)
        #expect(answer.state == "s" && answer["state"] == "s")
        #expect(try answer["user"].map(AuthorizedUser.init(jsonString:)) == issued.user)
        #expect(issued.user?.name?.firstName == "Maria")
        let claims = try harness.claims(answer)
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
        #expect(later.parameters.map(\.name) == ["code", "id_token", "state"])

        let refused = AuthorizationResponse.error(
            OAuthError(.userCancelledAuthorize, reason: "test"), redirectURI: "https://com.a.app/callback", responseMode: .formPost, state: "s2")
        #expect(refused.issued == nil)
        #expect(refused.state == "s2")
        #expect(refused.refusal?.code == .userCancelledAuthorize)
    }
}
