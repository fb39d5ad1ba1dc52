import AppleIDAdminAPI
import Testing

@Suite("Admin API wire: organizations and their Managed Apple IDs")
struct OrganizationWireTests {
    @Test("the organization and member orders")
    func orders() throws {
        try WireRoundTrip.check(
            OrganizationOrder.self,
            #"{"access_rule":"specific-apps","allowed_apps":["com.example.juice"],"kind":"school","name":"Cupertino High","verified_domains":["cupertino.example.edu"]}"#
        )
        try WireRoundTrip.check(AppOrder.self, #"{"app_id":"com.example.juice"}"#)
        try WireRoundTrip.check(RuleOrder.self, #"{"access_rule":"all-apps"}"#)
        try WireRoundTrip.check(
            MemberOrder.self,
            #"{"email":"ana@cupertino.example.edu","first_name":"Ana","last_name":"Li","password":"pw","two_factor_enabled":false,"username":"ana"}"#)
        try WireRoundTrip.check(MemberChange.self, #"{"deactivated":true,"email":""}"#)
    }

    @Test("an organization with its members, and the list")
    func answers() throws {
        try WireRoundTrip.check(
            OrganizationList.self,
            #"""
            {"organizations":[{"access_rule":"specific-apps","allowed_apps":["com.example.juice"],"federation_url":"https://idp.example.edu/check",
             "id":"org1","kind":"school","members":[{"email":"ana@cupertino.example.edu","first_name":"Ana","last_name":"Li","state":"active",
             "username":"ana"}],"name":"Cupertino High","verified_domains":["cupertino.example.edu"]}]}
            """#)
    }
}
