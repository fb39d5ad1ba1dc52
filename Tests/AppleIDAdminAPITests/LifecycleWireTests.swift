import AppleIDAdminAPI
import Testing

@Suite("Admin API wire: a user's lifecycle actions and the notification endpoint")
struct LifecycleWireTests {
    @Test("the lifecycle orders keep their snake_case fields")
    func orders() throws {
        try WireRoundTrip.check(EndpointChange.self, #"{"url":"https://example.com/notifications"}"#)
        try WireRoundTrip.check(GroupAction.self, #"{"group_id":"com.example.app"}"#)
        try WireRoundTrip.check(ForwardingChange.self, #"{"enabled":false,"team_id":"TEAMID1234"}"#)
    }

    @Test("the delivery log: each notification and its attempts")
    func deliveries() throws {
        try WireRoundTrip.check(
            DeliveryList.self,
            #"""
            {"deliveries":[{"attempts":[{"attempted_at":"2026-11-25T07:00:01Z","endpoint":"https://example.com/n","error":"HTTP 500",
             "latency_ms":12,"message_id":"m1","status":500}],"message":{"abandoned_at":"2026-11-26T07:00:00Z","attempts":1,
             "audience":"com.example.juice","created_at":"2026-11-25T07:00:00Z","delivered_at":"2026-11-25T07:00:02Z",
             "event":{"email":"a@privaterelay.appleid.com","event_time":1795590000000,"is_private_email":"true","sub":"001234.abc",
             "type":"email-disabled"},"group_id":"com.example.juice","id":"m1","next_attempt_at":"2026-11-25T07:01:00Z"}}]}
            """#)
    }
}
