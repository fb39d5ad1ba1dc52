import AppleIDProvider
import AppleIDServer
import AppleIDServerApp
import NIOCore
import ServerTestSupport
import Testing

@Suite("DNS TXT lookups over UDP, against a responder on 127.0.0.1", .timeLimit(.minutes(5)))
struct DNSResolverTests {
    static let responder = DNSResponder(table: [
        "mail.example.com": .txt([["v=spf1 include:_spf.", "example.net ~all"], ["google-site-verification=abc"]]),
        "broken.example.com": .code(2),
        "stray.example.com": .strayThen([["v=spf1 -all"]]),
        "silent.example.com": .silence,
    ])

    /// The resolver's timeout does not run on the wall clock here: names that are answered never time
    /// out, however loaded the machine is, and the silent name times out once the responder has heard it.
    static let heard = HeardQuestions(silentName: "silent.example.com")

    func resolver(_ port: Int) throws -> UDPTXTResolver {
        UDPTXTResolver(server: try ResolverAddress.parse("127.0.0.1:\(port)"), timeout: .seconds(3), waitOut: Self.heard.waitOut)
    }

    @Test("TXT records come back, a record of several strings joined without spaces (RFC 7208 §3.3)")
    func records() async throws {
        let answer = try await Self.responder.serve { try await resolver($0).txtRecords(of: "Mail.Example.com") }
        #expect(answer == .records(["v=spf1 include:_spf.example.net ~all", "google-site-verification=abc"]))
    }

    @Test("NXDOMAIN is no such name; SERVFAIL and silence are lookup failures, silence after the timeout")
    func failures() async throws {
        try await Self.responder.serve(heard: Self.heard) { port in
            let resolver = try resolver(port)
            let gone = try await resolver.txtRecords(of: "gone.example.com")
            #expect(gone == .noSuchName)
            await #expect(throws: TXTLookupError("the DNS server failed to answer for broken.example.com (SERVFAIL)")) {
                _ = try await resolver.txtRecords(of: "broken.example.com")
            }
            let impatient = try self.resolver(port)
            let silence = await #expect(throws: TXTLookupError.self) { _ = try await impatient.txtRecords(of: "silent.example.com") }
            #expect(silence?.reason.hasPrefix("no answer from the DNS server") == true)
        }
    }

    @Test("a reply with another id is ignored, the matching one is read")
    func strayReply() async throws {
        let answer = try await Self.responder.serve { try await resolver($0).txtRecords(of: "stray.example.com") }
        #expect(answer == .records(["v=spf1 -all"]))
    }

    @Test(
        "resolver addresses: an IP with an optional port",
        arguments: [("127.0.0.1", 53), ("127.0.0.1:5353", 5353), ("::1", 53), ("[::1]:5300", 5300)])
    func addresses(text: String, port: Int) throws {
        #expect(try ResolverAddress.parse(text).port == port)
    }

    @Test("a name, a bad port or garbage is not a resolver address")
    func badAddresses() {
        for text in ["dns.example.com", "127.0.0.1:0", "127.0.0.1:x", ""] {
            #expect(throws: TXTLookupError.self) { try ResolverAddress.parse(text) }
        }
    }

    @Test("the system resolver is the first nameserver of resolv.conf, else the local host")
    func resolvConf() {
        #expect(
            ResolverAddress.firstNameserver(inResolvConf: "# comment\nsearch example.com\nnameserver 10.0.0.2\nnameserver 10.0.0.3\n") == "10.0.0.2")
        #expect(ResolverAddress.firstNameserver(inResolvConf: "") == "127.0.0.1")
    }
}
