import AppleIDAdminAPI
import Testing

@Suite("Admin API wire: developers, invitations, e-mail sources and the test notification")
struct ConsoleWireTests {
    @Test("the console's orders")
    func orders() throws {
        try WireRoundTrip.check(DeveloperOrder.self, #"{"email":"dev@example.com","name":"Dev","password":"password1","team_ids":["TEAMID1234"]}"#)
        try WireRoundTrip.check(InvitationOrder.self, #"{"email":"dev@example.com"}"#)
        try WireRoundTrip.check(SourcesOrder.self, #"{"sources":"example.com,news@example.org"}"#)
    }

    @Test("a developer, an invitation new and pending, e-mail sources and a test notification")
    func answers() throws {
        try WireRoundTrip.check(DeveloperSummary.self, #"{"email":"dev@example.com","id":"d1","name":"Dev","team_ids":["TEAMID1234"]}"#)
        try WireRoundTrip.check(
            InvitationSummary.self,
            #"{"email":"dev@example.com","expires_at":"2026-12-02T09:00:00Z","mail_id":"k3j9x2abcdefghijklmn","team_id":"TEAMID1234"}"#
        )
        try WireRoundTrip.check(
            PendingInvitationList.self, #"{"invitations":[{"email":"dev@example.com","expires_at":"2026-12-02T09:00:00Z","invited_by":"operator"}]}"#)
        try WireRoundTrip.check(
            SourceList.self,
            #"{"email_sources":[{"check":"pass","checked_at":"2026-11-25T07:00:00Z","value":"example.com"},{"check":"unchecked","value":"a@b.org"}]}"#
        )
        try WireRoundTrip.check(TestNotificationView.self, #"{"aud":"com.example.app","jti":"n1","type":"consent-revoked"}"#)
    }
}
