import AppleIDAdminAPI
import Testing

@Suite("Admin API wire: clients, teams, signing keys and the keychain")
struct ClientWireTests {
    @Test("a client's Return URL and quirk orders")
    func clientOrders() throws {
        try WireRoundTrip.check(ReturnURLOrder.self, #"{"url":"https://example.com/cb"}"#)
        try WireRoundTrip.check(
            QuirksOrder.self,
            #"""
            {"booleans_as_strings":true,"id_token_lifetime":600,"deletion_event":"account-deleted","issuer":"https://appleid.apple.com",
             "managed_email_verified_as_boolean":false}
            """#)
    }

    @Test("a client as GET /admin/clients/{client} shows it, and its request log")
    func clientAnswers() throws {
        try WireRoundTrip.check(
            ClientView.self,
            #"""
            {"booleans_as_strings":false,"client_id":"com.example.web","deletion_event":"account-delete","group_id":"com.example.app",
             "id_token_lifetime":600,"issuer":"https://appleid.apple.com","kind":"services-id","return_urls":["https://example.com/cb"],
             "team_id":"TEAMID1234","webcredentials_domains":["example.com"]}
            """#)
        try WireRoundTrip.check(
            RequestList.self,
            #"{"requests":[{"at":"2026-11-25T07:00:03Z","endpoint":"token","outcome":"invalid_grant","proven":true,"reason":"code reused"}]}"#)
    }

    @Test("teams, an App ID order and the signing keys")
    func teamsAndKeys() throws {
        try WireRoundTrip.check(TeamList.self, #"{"teams":[{"kind":"organization","name":"Juice","team_id":"TEAMID1234"}]}"#)
        try WireRoundTrip.check(AppIDOrder.self, #"{"bundle_id":"com.example.app","description":"Juice","grouped_with":"com.example.main"}"#)
        try WireRoundTrip.check(KeyRingState.self, #"{"active_kid":"k2","published_kids":["k1","k2","k3"],"rotated":true}"#)
    }

    @Test("the keychain's orders and its saved passwords")
    func keychain() throws {
        try WireRoundTrip.check(PasswordOrder.self, #"{"domain":"example.com","password":"pw","user":"sam"}"#)
        try WireRoundTrip.check(DomainsOrder.self, #"{"webcredentials":["example.com","webcredentials:example.org"]}"#)
        try WireRoundTrip.check(SavedPasswordList.self, #"{"passwords":[{"domain":"example.com","saved_at":"2026-11-25T07:00:00Z","user":"sam"}]}"#)
    }
}
