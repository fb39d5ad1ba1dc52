import AppleIDAdminAPI
import Testing

@Suite("Admin API wire: the private relay's mail")
struct MailWireTests {
    static let summary = #"""
        {"attempts":1,"delivery":"delivered","destination":"sam@example.com","direction":"inbound","from":"news@example.org",
         "id":"m1","last_error":"451 try later","received_at":"2026-11-25T07:00:00Z","relay_address":"abc123@privaterelay.appleid.com",
         "size":512,"subject":"Welcome","to":"abc123@privaterelay.appleid.com"}
        """#

    @Test("a message as listed")
    func list() throws {
        try WireRoundTrip.check(MailList.self, #"{"messages":["# + Self.summary + "]}")
    }

    @Test("a message shown, raw and parsed")
    func detail() throws {
        try WireRoundTrip.check(
            MailDetail.self,
            #"{"body":"Hello","headers":[{"name":"Subject","value":"Welcome"}],"message":"# + Self.summary
                + #","raw":"Subject: Welcome\r\n\r\nHello","raw_base64":"U3ViamVjdDogV2VsY29tZQ0KDQpIZWxsbw=="}"#)
    }
}
