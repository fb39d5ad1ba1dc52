import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// The admin API's refusals render themselves: an endpoint throws, the error answers. These pin the
/// wire (status, body, `no-store`) of one refusal per kind, and keep hand renderings from coming back.
@Suite("Admin API refusals render themselves")
struct AdminErrorTests {
    static let admin = NativeCredentialTests.admin

    struct Refusal: CustomTestStringConvertible, Sendable {
        let method: HTTPRequest.Method
        let uri: String
        var body = ""
        let status: HTTPResponse.Status
        let answer: String
        var testDescription: String { "\(method) \(uri)" }
    }

    static let refusals: [Refusal] = [
        Refusal(
            method: .post, uri: "/admin/authorizations", body: #"{"client_id":"c","apple_id":"a@example.com","count":0}"#,
            status: .badRequest, answer: #"{"error":"invalid_request","error_description":"count must be between 1 and 1000"}"#),
        Refusal(
            method: .patch, uri: "/admin/users/nobody@example.com", body: "{}", status: .notFound,
            answer: #"{"error":"invalid_request","error_description":"no Apple ID nobody@example.com"}"#),
        Refusal(
            method: .post, uri: "/admin/clock/set", body: #"{"time":"tomorrow"}"#, status: .badRequest,
            answer:
                #"{"error":"invalid_request","error_description":"time is an ISO 8601 date and time within 100 years, e.g. 2026-12-01T09:00:00Z"}"#),
        Refusal(
            method: .get, uri: "/admin/clients/com.example.none", status: .notFound,
            answer: #"{"error":"invalid_client","error_description":"no such client"}"#),
        // An engine refusal (ConsoleError, not found), translated in one place.
        Refusal(
            method: .post, uri: "/admin/clients/com.example.none/return-urls", body: #"{"url":"https://example.com/cb"}"#,
            status: .notFound, answer: #"{"error":"invalid_client","error_description":"There is no identifier com.example.none in this team."}"#),
        Refusal(
            method: .post, uri: "/admin/users/nobody@example.com/stop-using", body: #"{"group_id":"G"}"#, status: .notFound,
            answer: #"{"error":"invalid_request","error_description":"no Apple ID nobody@example.com"}"#),
        Refusal(
            method: .post, uri: "/admin/teams", body: #"{"team_id":"lower"}"#, status: .badRequest,
            answer: #"{"error":"invalid_request","error_description":"team_id is 10 upper-case letters and digits"}"#),
        // An engine refusal (RegistrationError).
        Refusal(
            method: .post, uri: "/admin/teams/NOSUCHTEAM/keys", body: #"{"primary_app_id":"com.example.app"}"#, status: .notFound,
            answer: #"{"error":"invalid_request","error_description":"no team NOSUCHTEAM"}"#),
        // An engine refusal (TransferError).
        Refusal(
            method: .post, uri: "/admin/transfers", body: #"{"group_id":"NOGROUP","recipient_team_id":"NOSUCHTEAM"}"#, status: .notFound,
            answer: #"{"error":"invalid_request","error_description":"no app group NOGROUP"}"#),
        Refusal(
            method: .get, uri: "/admin/credential-events?client_id=c&wait=99", status: .badRequest,
            answer: #"{"error":"invalid_request","error_description":"wait is a number of seconds from 0 to 60"}"#),
    ]

    @Test("a refusal answers Apple's JSON with the precise reason, never cached", arguments: refusals)
    func refusalWire(_ refusal: Refusal) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await client.execute(
                uri: refusal.uri, method: refusal.method, headers: Self.admin, body: ByteBuffer(string: refusal.body))
            #expect(response.status == refusal.status)
            #expect(String(buffer: response.body) == refusal.answer)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[.contentType] == "application/json;charset=UTF-8")
        }
    }

    @Test("no admin endpoint renders or catches a refusal: it throws, and AdminRefusalMiddleware renders the engine's and the store's errors")
    func noHandRenderings() throws {
        let root = Fixtures.packageRoot
        let folder = root.appendingPathComponent("Sources/AppleIDServer/Endpoints/Admin")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 5, "the admin endpoints moved: this scan would pass vacuously")
        var renderings: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("explained(") || line.contains(".httpResponse") || (file != "AdminError.swift" && line.contains("} catch")) {
                renderings.append("\(file):\(number + 1)")
            }
        }
        #expect(
            renderings.isEmpty,
            "throw, and let AdminError(engineRefusal:) render it (\(renderings.count) hand renderings or catches):\n\(renderings.joined(separator: "\n"))"
        )
    }
}

/// A request the admin API cannot read (no body, a value of the wrong type, a path parameter of the
/// wrong shape) is refused in the same documented shape as every other refusal, not in Hummingbird's
/// `{"error": {"message": …}}` (issue 39: schemathesis found the two shapes in 31 of 56 operations).
@Suite("Admin API: unreadable requests are refused in the documented shape")
struct AdminUnreadableRequestTests {
    struct Unreadable: CustomTestStringConvertible, Sendable {
        let method: HTTPRequest.Method
        let uri: String
        var body: String?
        let status: HTTPResponse.Status
        var testDescription: String { "\(method) \(uri) \(body ?? "(no body)")" }
    }

    static let requests: [Unreadable] = [
        Unreadable(method: .post, uri: "/admin/users", status: .badRequest),
        Unreadable(method: .post, uri: "/admin/users", body: #"{"apple_id": 5}"#, status: .badRequest),
        Unreadable(method: .post, uri: "/admin/users", body: "not json", status: .badRequest),
        Unreadable(method: .post, uri: "/admin/authorizations", body: #"{"client_id": ["c"]}"#, status: .badRequest),
        Unreadable(method: .get, uri: "/admin/orgs/not-a-uuid", status: .notFound),
    ]

    @Test("refused as invalid_request with the reason, never cached", arguments: requests)
    func documentedShape(_ request: Unreadable) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await client.execute(
                uri: request.uri, method: request.method, headers: AdminErrorTests.admin, body: request.body.map { ByteBuffer(string: $0) })
            #expect(response.status == request.status)
            let answer = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            #expect(answer?["error"] as? String == "invalid_request", "answer: \(String(buffer: response.body))")
            #expect((answer?["error_description"] as? String)?.isEmpty == false, "answer: \(String(buffer: response.body))")
            #expect(answer?.count == 2, "only error and error_description: \(String(buffer: response.body))")
            #expect(response.headers[.cacheControl] == "no-store")
        }
    }
}
