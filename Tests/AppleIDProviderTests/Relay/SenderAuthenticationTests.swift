import AppleIDProtocol
import Foundation
import Testing

@testable import AppleIDProvider
@testable import AppleIDRelay

/// Beyond the loopback the relay takes mail only from a connecting address the envelope sender's
/// domain lists in its SPF policy (issue 35, finding 1).
@Suite("The relay's SPF check of senders beyond the loopback")
struct SenderAuthenticationTests {
    /// A name missing from the table fails like an unreachable server.
    static let resolver = ConsoleNotificationTests.TableResolver(answers: [
        "example.com": .records(["google-site-verification=x", "v=spf1 ip4:192.0.2.0/24 include:_spf.example.com -all"]),
        "_spf.example.com": .records(["v=spf1 ip6:2001:db8::/32 ip4:198.51.100.7 ~all"]),
        "redirected.example": .records(["v=spf1 redirect=example.com"]),
        "soft.example": .records(["v=spf1 ~all"]),
        "mx.example": .records(["v=spf1 mx -all"]),
        "two.example": .records(["v=spf1 -all", "v=spf1 +all"]),
        "nopolicy.example": .records(["hello"]),
        "gone.example": .noSuchName,
        "loop.example": .records(["v=spf1 include:loop.example -all"]),
    ])

    @Test(
        "check_host: ip4/ip6 ranges, include and redirect pass only the listed addresses",
        arguments: [
            ("192.0.2.77", "example.com", SPFResult.pass), ("192.0.3.1", "example.com", .fail), ("198.51.100.7", "example.com", .pass),
            ("2001:db8::5", "example.com", .pass), ("::ffff:192.0.2.1", "example.com", .pass), ("2001:db9::1", "example.com", .fail),
            ("192.0.2.1", "redirected.example", .pass), ("127.0.0.1", "redirected.example", .fail), ("127.0.0.1", "soft.example", .softfail),
            ("127.0.0.1", "nopolicy.example", .none), ("127.0.0.1", "gone.example", .none),
        ])
    func checkHost(_ address: String, _ domain: String, _ expected: SPFResult) async throws {
        let ip = try #require(IPAddress(address))
        #expect(await SPFEvaluator(resolver: Self.resolver).check(address: ip, domain: domain) == expected)
    }

    @Test("what the check cannot evaluate is a permanent error, never a pass; a failed lookup is temporary")
    func failsClosed() async throws {
        let evaluator = SPFEvaluator(resolver: Self.resolver)
        let ip = try #require(IPAddress("127.0.0.1"))
        for domain in ["mx.example", "two.example", "loop.example"] {
            guard case .permerror = await evaluator.check(address: ip, domain: domain) else {
                Issue.record("\(domain) should be a permanent error")
                continue
            }
        }
        guard case .temperror = await evaluator.check(address: ip, domain: "unreachable.example") else {
            Issue.record("a lookup without answer should be a temporary error")
            return
        }
    }

    @Test("the relay's answer: nil for a pass, 550 5.7.23 for an address the policy does not list, 451 4.7.24 when DNS fails")
    func relayAnswers() async throws {
        let harness = try await ProviderHarness.make(txtResolver: Self.resolver)
        let relay = harness.relay
        #expect(await relay.authenticateSender("news@example.com", clientAddress: "192.0.2.9") == nil)
        let refused = try #require(await relay.authenticateSender("news@example.com", clientAddress: "127.0.0.1"))
        #expect(refused.code == 550)
        #expect(refused.lines[0].hasPrefix("5.7.23 127.0.0.1 is not allowed to send mail from example.com"))
        #expect(await relay.authenticateSender("", clientAddress: "192.0.2.9")?.code == 550, "the null sender has no domain to check")
        #expect(await relay.authenticateSender("a@unreachable.example", clientAddress: "192.0.2.9")?.code == 451)
        #expect(await relay.authenticateSender("a@mx.example", clientAddress: "192.0.2.9")?.lines[0].hasPrefix("5.7.24") == true)
    }
}
