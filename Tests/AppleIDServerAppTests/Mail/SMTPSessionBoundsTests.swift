import AppleIDProvider
import AppleIDRelay
import Foundation
import SMTPWire
import ServerTestSupport
import Testing

@testable import AppleIDServerApp

/// The listener bounds what clients can hold: sessions overall and per peer address, and the
/// memory every spool keeps together (issue 35, finding 7).
@Suite("SMTP listener: session and memory bounds")
struct SMTPSessionBoundsTests {
    @Test(
        "a connection beyond the sessions allowed, overall or from one address, is answered 421 4.7.0 and closed",
        .timeLimit(.minutes(5)), arguments: [(1, 10), (10, 1)])
    func sessionCap(overall: Int, perPeer: Int) async throws {
        let admission = SMTPAdmission(maximumSessions: overall, maximumPerPeer: perPeer)
        try await SMTPListenerTests.withListener(admission: admission) { _, port in
            var first = try await TinySMTPClient(port: port)
            #expect(try await first.replies(1).map(\.code) == [220])
            var second = try await TinySMTPClient(port: port)
            let refused = try await second.replies(1)
            #expect(refused == [SMTPReply(421, "4.7.0 Too many connections, try again later")])
            #expect(try await second.isClosedByServer())
            await second.close()
            try await first.send("NOOP\r\n")
            #expect(try await first.replies(1).map(\.code) == [250], "the session held goes on")
            #expect(admission.current == 1)
            await first.close()
        }
    }

    @Test("the admission counts sessions per address and gives them back")
    func admissionCounts() {
        let admission = SMTPAdmission(maximumSessions: 3, maximumPerPeer: 2)
        #expect(admission.admit("192.0.2.1") && admission.admit("192.0.2.1"))
        #expect(!admission.admit("192.0.2.1"), "a third from one address")
        #expect(admission.admit("192.0.2.2"))
        #expect(!admission.admit("192.0.2.3"), "a fourth overall")
        admission.release("192.0.2.1")
        #expect(admission.admit("192.0.2.3"))
        #expect(admission.current == 3)
    }

    @Test("once the spools' memory budget is used, a spool writes even a small message to its file, and reads it back whole")
    func spoolBudget() async throws {
        let gauge = BufferGauge(budget: 100)
        var first = MessageSpool(gauge: gauge)
        var second = MessageSpool(gauge: gauge)
        try first.append(Array(repeating: UInt8(ascii: "a"), count: 80))
        try second.append(Array(repeating: UInt8(ascii: "b"), count: 80))
        #expect(gauge.current == 80, "the second spool went to its file")
        #expect(second.message() is SpooledMessage)
        #expect(gauge.peak <= 100, "the spools kept at most the budget in memory")
        let read = try await second.message().withBytes(in: 0..<80) { Array($0) }
        #expect(read == Array(repeating: UInt8(ascii: "b"), count: 80))
        first.discard()
        second.discard()
        #expect(gauge.current == 0)
    }
}
