import Foundation
import Testing

/// `siwa authorize` run as the built binary against a `siwa serve` of its own, as a person types it.
@Suite("siwa authorize: a refusal is exit 1 with the server's reason", .timeLimit(.minutes(5)))
struct AuthorizeCommandTests {
    @Test("a refusal after the Return URL is proven (name and e-mail by query) exits 1 with the reason; an answer exits 0")
    func refusal() async throws {
        let server = try await SiwaServer()
        let common = [
            "authorize", "--apple-id", "maria.ruiz@example.com", "--client-id", "com.example.juice.web",
            "--redirect-uri", "http://127.0.0.1:\(server.port)/playground/callback",
        ]

        let refused = try await server.run(common + ["--scope", "name email", "--response-mode", "query"])
        #expect(refused.status == 1, "\(refused.standardOutput)")
        #expect(refused.standardError.contains("invalid_request"), "\(refused.standardError)")
        #expect(refused.standardError.contains("form_post"), "the server's reason: \(refused.standardError)")
        #expect(!refused.standardOutput.contains("results"))

        let answered = try await server.run(common)
        #expect(answered.status == 0, "\(answered.standardError)")
        #expect(answered.standardOutput.contains("\"code\""))
    }
}
