import AppleIDAdminAPI
import Testing

@Suite("Admin API wire: development mode's faults and signed notifications")
struct FaultWireTests {
    @Test("a token fault armed, a notification ordered and answered")
    func faults() throws {
        try WireRoundTrip.check(FaultOrder.self, #"{"client_id":"com.example.juice.web","delay_seconds":20.5,"fault":"timeout"}"#)
        try WireRoundTrip.check(NotificationOrder.self, #"{"apple_id":"maria@example.com","client_id":"com.example.juice.web","fault":"wrong-aud"}"#)
        try WireRoundTrip.check(NotificationView.self, #"{"jti":"n1","payload":"eyJhbGciOiJSUzI1NiJ9.e30.c2ln"}"#)
    }
}
