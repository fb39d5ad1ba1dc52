import AppleIDAdminAPI
import Testing

@Suite("Admin API wire: headless authorizations and the native side")
struct NativeWireTests {
    @Test("a headless authorization order is the request's parameters beside the order's own fields, flat")
    func authorizationOrder() throws {
        try WireRoundTrip.check(
            AuthorizationOrder.self,
            #"""
            {"apple_id":"maria@example.com","client_id":"com.example.juice.web","count":3,"first_name":"Maria","hide_email":true,
             "last_name":"Ruiz","nonce":"n","redirect_uri":"https://example.com/cb","response_mode":"form_post","response_type":"code id_token",
             "scope":"name email","state":"s"}
            """#)
        try WireRoundTrip.check(AuthorizationResults.self, #"{"results":[{"code":"c1","state":"s"},{"error":"access_denied"}]}"#)
    }

    @Test("a native order, and the credential, password or failure it answers")
    func native() throws {
        try WireRoundTrip.check(
            NativeOrder.self,
            #"""
            {"apple_id":"maria@example.com","bundle_id":"com.example.juice","cancel":false,"existing_credentials_only":true,"existing_only":true,
             "hide_email":false,"nonce":"abc","pick":"password:maria","providers":["apple-id","password"],"scope":"name email"}
            """#)
        try WireRoundTrip.check(
            NativeSheetAnswer.self,
            #"""
            {"authorizationCode":"c1","authorizedScopes":["name","email"],"email":"maria@example.com",
             "fullName":{"firstName":"Maria","lastName":"Ruiz"},"identityToken":"h.p.s","offered":[{"type":"apple-id"},
             {"type":"password","user":"maria"}],"realUserStatus":2,"type":"apple-id","user":"001234.abc"}
            """#)
        try WireRoundTrip.check(
            NativeSheetAnswer.self, #"{"offered":[{"type":"password","user":"maria"}],"password":"pw","type":"password","user":"maria"}"#)
        try WireRoundTrip.check(
            NativeFailure.self,
            #"{"code":1001,"error":"ASAuthorizationError.canceled","error_description":"the user canceled","offered":[{"type":"apple-id"}]}"#)
    }

    @Test("credential state and the credential-revoked feed")
    func credentialState() throws {
        try WireRoundTrip.check(CredentialStateView.self, #"{"state":"revoked"}"#)
        try WireRoundTrip.check(
            CredentialEventFeed.self,
            #"""
            {"cursor":"1795590000.5_m1","events":[{"cursor":"1795590000.5_m1","group_id":"com.example.juice","occurred_at":"2026-11-25T07:00:00Z",
             "sub":"001234.abc","type":"consent-revoked"}]}
            """#)
    }
}
