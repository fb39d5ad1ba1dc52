import AppleIDAdminAPI
import Testing

@Suite("Admin API wire: teams, their keys and app transfers")
struct TransferWireTests {
    @Test("a team, a key and a transfer ordered")
    func orders() throws {
        try WireRoundTrip.check(TeamOrder.self, #"{"kind":"individual","name":"Juice","team_id":"TEAMID1234"}"#)
        try WireRoundTrip.check(KeyOrder.self, #"{"primary_app_id":"com.example.app"}"#)
        try WireRoundTrip.check(TransferOrder.self, #"{"group_id":"com.example.app","recipient_team_id":"TEAMID5678"}"#)
    }

    @Test("the new key, shown once, and the transfers with their window")
    func answers() throws {
        try WireRoundTrip.check(
            NewKey.self,
            #"""
            {"key_id":"ABC123DEFG","primary_app_id":"com.example.app","private_key_pem":"-----BEGIN PRIVATE KEY-----\nMIG...\n-----END PRIVATE KEY-----\n",
             "team_id":"TEAMID1234"}
            """#)
        try WireRoundTrip.check(
            TransferList.self,
            #"""
            {"transfers":[{"from_team_id":"TEAMID1234","group_id":"com.example.app","id":"t1","to_team_id":"TEAMID5678",
             "transferred_at":"2026-11-25T07:00:00Z","window_ends_at":"2027-01-24T07:00:00Z"}]}
            """#)
    }
}
