import AppleIDServerApp
import Testing

@Suite("Swift Concurrency on the event loops (siwa serve only)")
struct ConcurrencyOnEventLoopsTests {
    @Test(
        "only the server moves Swift Concurrency onto NIO's event loops, unless told to keep Swift's pool",
        arguments: [
            (["serve", "--port", "0"], [:], true),
            (["serve"], ["SIWA_CONCURRENCY_POOL": "swift"], false),
            (["serve"], ["SIWA_CONCURRENCY_POOL": "event-loops"], true),
            (["secret", "--team-id", "T"], [:], false),
            ([], [:], false),
        ] as [([String], [String: String], Bool)])
    func wanted(arguments: [String], environment: [String: String], expected: Bool) {
        #expect(ConcurrencyOnEventLoops.isWanted(arguments: arguments, environment: environment) == expected)
    }
}
