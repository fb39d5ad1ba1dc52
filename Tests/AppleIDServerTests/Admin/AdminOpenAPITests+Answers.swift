import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The answers' side: a scripted admin session, each answer checked against the schema the document
/// gives for its operation and status (an undocumented field, a missing required one or a wrong type
/// fails).
extension AdminOpenAPITests {
    /// One call: the documented operation (`METHOD /template`), the URI sent, the body, the status expected.
    struct Call: CustomStringConvertible {
        let operation: String
        let uri: String
        let body: String?
        let status: Int

        init(_ operation: String, _ uri: String? = nil, _ body: String? = nil, status: Int = 200) {
            self.operation = operation
            self.uri = uri ?? String(operation.split(separator: " ")[1])
            self.body = body
            self.status = status
        }

        var description: String { "\(operation) → \(status)" }
    }

    static let session: [Call] = [
        Call("POST /admin/users", nil, #"{"apple_id":"ada@example.com","password":"a long password","first_name":"Ada"}"#),
        Call("POST /admin/users", nil, #"{"apple_id":"ada@example.com","password":"a long password"}"#, status: 409),
        Call("PATCH /admin/users/{appleID}", "/admin/users/ada@example.com", #"{"real_user_status":1,"two_factor_enabled":false}"#),
        Call(
            "POST /admin/authorizations", nil,
            #"{"client_id":"com.example.juice.web","redirect_uri":"https://juice.example.com/auth/callback","apple_id":"ada@example.com","#
                + #""scope":"name email","response_mode":"form_post","response_type":"code id_token","state":"s","nonce":"n"}"#),
        Call("POST /admin/native-credentials", nil, #"{"bundle_id":"com.example.juice","apple_id":"ada@example.com"}"#),
        Call("POST /admin/native-credentials", nil, #"{"bundle_id":"com.example.juice","apple_id":"ada@example.com","cancel":true}"#, status: 409),
        Call("GET /admin/users"),
        Call("GET /admin/clients/{client}", "/admin/clients/com.example.juice.web"),
        Call("GET /admin/clients/{client}/requests", "/admin/clients/com.example.juice.web/requests"),
        Call("GET /admin/teams"),
        Call("POST /admin/teams", nil, #"{"team_id":"ACME000001","name":"Acme"}"#),
        Call("POST /admin/teams/{team}/apps", "/admin/teams/ACME000001/apps", #"{"bundle_id":"com.acme.app"}"#),
        Call("POST /admin/teams/{team}/keys", "/admin/teams/ACME000001/keys", #"{"primary_app_id":"com.acme.app"}"#),
        Call("POST /admin/developers", nil, #"{"email":"dev@acme.example","password":"a long password","team_ids":["ACME000001"]}"#),
        Call("GET /admin/keys"),
        Call("POST /admin/keys/rotate"),
        Call("GET /admin/clock"),
        Call("POST /admin/clock/advance", nil, #"{"seconds":60}"#),
        Call("POST /admin/orgs", nil, #"{"name":"Springfield School","verified_domains":["school.example"]}"#),
        Call("GET /admin/orgs"),
        Call("GET /admin/transfers?group_id=com.example.juice", "/admin/transfers?group_id=com.example.juice"),
        Call("GET /admin/mail"),
        Call(
            "PUT /admin/clients/{client}/associated-domains", "/admin/clients/com.example.juice/associated-domains",
            #"{"webcredentials":["juice.example.com"]}"#, status: 204),
        Call(
            "POST /admin/users/{appleID}/keychain", "/admin/users/ada@example.com/keychain",
            #"{"user":"ada","password":"juice password","domain":"juice.example.com"}"#, status: 201),
        Call("GET /admin/users/{appleID}/keychain", "/admin/users/ada@example.com/keychain"),
        Call(
            "POST /admin/native-credentials", nil,
            #"{"bundle_id":"com.example.juice","apple_id":"ada@example.com","providers":["apple-id","password"],"existing_only":true,"pick":"password"}"#
        ),
        // A quirk set, so that the export's `quirks` is checked too.
        Call(
            "PUT /admin/clients/{client}/quirks", "/admin/clients/com.example.juice.web/quirks", #"{"booleans_as_strings":true}"#, status: 204),
        Call("GET /admin/config"),
    ]

    @Test("each answer of a scripted admin session matches the schema the document gives for its operation and status")
    func answersMatchTheirSchemas() async throws {
        let document = try await Self.servedDocument()
        let server = try await TestServer.make()
        let answers = try await server.app.test(.router) { client in
            var answers: [(call: Call, body: ByteBuffer)] = []
            for call in Self.session {
                let method = HTTPRequest.Method(rawValue: String(call.operation.split(separator: " ")[0]))
                let response = try await client.execute(
                    uri: call.uri, method: try #require(method), headers: Self.admin, body: call.body.map { ByteBuffer(string: $0) })
                try #require(response.status.code == call.status, "\(call): \(response.status) \(String(buffer: response.body))")
                answers.append((call, response.body))
            }
            return answers
        }
        for (call, body) in answers where call.status != 204 {
            let schema = try document.responseSchema(String(call.operation.split(separator: "?")[0]), status: call.status)
            let violations = try document.violations(of: try JSONSerialization.jsonObject(with: Data(buffer: body)), against: schema)
            #expect(violations.isEmpty, "\(call): \(violations.joined(separator: "; "))")
        }
    }
}
