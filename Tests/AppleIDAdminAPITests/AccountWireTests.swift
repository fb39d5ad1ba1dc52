import AppleIDAdminAPI
import Testing

@Suite("Admin API wire: Apple IDs and the clock")
struct AccountWireTests {
    @Test("an Apple ID order keeps its snake_case fields")
    func accountOrder() throws {
        try WireRoundTrip.check(
            AccountOrder.self,
            #"""
            {"apple_id":"sam@example.com","password":"pw","first_name":"Sam","last_name":"Lee","email":"sam@example.com",
             "real_user_status":2,"two_factor_enabled":false,"additional_emails":["s@example.org"]}
            """#)
    }

    @Test("GET /admin/users answers each Apple ID with its two-factor code and its subs")
    func accountList() throws {
        try WireRoundTrip.check(
            AccountList.self,
            #"""
            {"users":[{"additional_emails":[],"apple_id":"sam@example.com","current_two_factor_code":"123456","deleted":false,
             "email":"sam@example.com","first_name":"Sam","last_name":"Lee","real_user_status":2,
             "subjects":[{"sub":"001234.abc","team_id":"TEAMID1234"}],"two_factor_enabled":true}]}
            """#)
    }

    @Test("the clock's orders and its state")
    func clock() throws {
        try WireRoundTrip.check(ClockAdvance.self, #"{"seconds":-10.5}"#)
        try WireRoundTrip.check(ClockSetting.self, #"{"time":"2026-12-01T09:00:00Z"}"#)
        try WireRoundTrip.check(ClockView.self, #"{"now":"2026-12-01T09:00:00Z","offset_seconds":3600,"shifted":true}"#)
    }
}
