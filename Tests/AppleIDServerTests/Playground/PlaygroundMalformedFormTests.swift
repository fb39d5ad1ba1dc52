import AppleIDServer
import Hummingbird
import HummingbirdTesting
import Testing

/// Found by `Interop/malformed_load.py`: a playground form that cannot be read (a repeated field,
/// bad percent-encoding, the wrong content type, a body over the limit) answered 500, because the
/// decoder's `OAuthError` left the route unhandled. It is the client's mistake: 400.
@Suite("Playground: a form that cannot be read")
struct PlaygroundMalformedFormTests {
    static let forms: [(content: String, body: String)] = [
        ("application/x-www-form-urlencoded", "state=a&state=b"),
        ("application/x-www-form-urlencoded", "id_token=a.b.c&code=%&state=s"),
        ("application/x-www-form-urlencoded", "refresh_token=%G1"),
        ("application/json", #"{"refresh_token":"r"}"#),
        ("application/x-www-form-urlencoded", "refresh_token=" + String(repeating: "x", count: 70_000)),
    ]

    @Test(
        "answers 400, never 500",
        arguments: ["/playground/callback", "/playground/refresh", "/playground/revoke"], forms.indices)
    func badForm(path: String, form: Int) async throws {
        let server = try await TestServer.make(playground: true)
        try await server.app.test(.router) { client in
            let (content, body) = Self.forms[form]
            let response = try await client.execute(
                uri: path, method: .post, headers: [.contentType: content], body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
        }
    }
}
