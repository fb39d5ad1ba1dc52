import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Admin API: organizations and Managed Apple IDs")
struct AdminOrganizationTests {
    static let admin = NativeCredentialTests.admin

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test("create an organization and its Managed Apple IDs, change its allow list; secrets never leave the server")
    func organizations() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let created = try await client.execute(
                uri: "/admin/orgs", method: .post, headers: Self.admin,
                body: ByteBuffer(
                    string:
                        #"{"name":"Cupertino High","kind":"school","verified_domains":["cupertino.example.edu"],"access_rule":"specific-apps","allowed_apps":["com.example.juice"]}"#
                ))
            #expect(created.status == .ok)
            let org = try #require(try Self.json(created)["id"] as? String)
            #expect(UUID(uuidString: org) != nil)

            let teacher = try await client.execute(
                uri: "/admin/orgs/\(org)/users", method: .post, headers: Self.admin,
                body: ByteBuffer(
                    string:
                        #"{"username":"tim@appleid.cupertino.example.edu","password":"pw","first_name":"Tim","last_name":"T","email":"tim@cupertino.example.edu"}"#
                ))
            #expect(try Self.json(teacher)["email"] as? String == "tim@cupertino.example.edu")
            #expect(!String(buffer: teacher.body).contains("$2"), "no bcrypt hash in the answer")
            let student = try await client.execute(
                uri: "/admin/orgs/\(org)/users", method: .post, headers: Self.admin,
                body: ByteBuffer(string: #"{"username":"sam@appleid.cupertino.example.edu","password":"pw","first_name":"Sam","last_name":"S"}"#))
            #expect(try Self.json(student)["email"] == nil)

            let deactivated = try await client.execute(
                uri: "/admin/orgs/\(org)/users/sam@appleid.cupertino.example.edu", method: .patch, headers: Self.admin,
                body: ByteBuffer(string: #"{"deactivated":true}"#))
            #expect(try Self.json(deactivated)["state"] as? String == "deactivated")

            let disallowed = try await client.execute(uri: "/admin/orgs/\(org)/allowed-apps/com.example.juice", method: .delete, headers: Self.admin)
            #expect(try Self.json(disallowed)["allowed_apps"] as? [String] == [])

            let shown = try Self.json(try await client.execute(uri: "/admin/orgs/\(org)", method: .get, headers: Self.admin))
            let members = try #require(shown["members"] as? [[String: Any]])
            // Created at the same instant (the fixed clock): by username.
            #expect(members.compactMap { $0["username"] as? String } == ["sam@appleid.cupertino.example.edu", "tim@appleid.cupertino.example.edu"])
            #expect(members.compactMap { $0["state"] as? String } == ["deactivated", "active"])

            let list = try Self.json(try await client.execute(uri: "/admin/orgs", method: .get, headers: Self.admin))
            #expect((list["organizations"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Cupertino High"])
        }
    }

    @Test("refusals in the documented shape: an unknown organization or member 404, a malformed kind 400, a username taken 409")
    func refusals() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let unknown = try await client.execute(uri: "/admin/orgs/\(UUID().uuidString)", method: .get, headers: Self.admin)
            #expect(unknown.status == .notFound)
            #expect(try Self.json(unknown)["error"] as? String == "invalid_request")
            let malformed = try await client.execute(
                uri: "/admin/orgs", method: .post, headers: Self.admin, body: ByteBuffer(string: #"{"name":"X","kind":"club"}"#))
            #expect(malformed.status == .badRequest)

            let created = try await client.execute(
                uri: "/admin/orgs", method: .post, headers: Self.admin, body: ByteBuffer(string: #"{"name":"Cupertino High"}"#))
            let org = try #require(try Self.json(created)["id"] as? String)
            let member = #"{"username":"sam@appleid.cupertino.example.edu","password":"pw","first_name":"Sam","last_name":"S"}"#
            let first = try await client.execute(
                uri: "/admin/orgs/\(org)/users", method: .post, headers: Self.admin, body: ByteBuffer(string: member))
            #expect(first.status == .ok)
            let taken = try await client.execute(
                uri: "/admin/orgs/\(org)/users", method: .post, headers: Self.admin, body: ByteBuffer(string: member))
            #expect(taken.status == .conflict)
            #expect(try Self.json(taken)["error_description"] as? String == "Apple ID sam@appleid.cupertino.example.edu already exists")
            let nobody = try await client.execute(
                uri: "/admin/orgs/\(org)/users/nobody@appleid.cupertino.example.edu", method: .patch, headers: Self.admin,
                body: ByteBuffer(string: #"{"deactivated":true}"#))
            #expect(nobody.status == .notFound)
            #expect(try Self.json(nobody)["error_description"] as? String == "no Apple ID nobody@appleid.cupertino.example.edu")
        }
    }

    @Test("the quirk switch writes a Managed Apple ID's email_verified as a JSON false")
    func quirk() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let set = try await client.execute(
                uri: "/admin/clients/com.example.juice.web/quirks", method: .put, headers: Self.admin,
                body: ByteBuffer(string: #"{"managed_email_verified_as_boolean":true}"#))
            #expect(set.status == .noContent)
            let quirks = try #require(try await server.provider.registeredClient("com.example.juice.web")).quirks
            #expect(quirks.managedEmailVerifiedStyle == .boolean)
        }
    }
}
