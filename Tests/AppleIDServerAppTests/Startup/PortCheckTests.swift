import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import AppleIDServerApp

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `siwa serve` checks that its ports are free before it seeds or writes anything. The check must
/// never take a connection: a readiness probe (a test fixture, the interop scripts, a supervisor)
/// that connects during the check would take the server for ready before it is (CI's SMTP check
/// once read "connection refused" from the admin API right after its probe had connected).
@Suite("The port check before start")
struct PortCheckTests {
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(channel.localAddress?.port)
        try await channel.close()
        return port
    }

    /// One blocking connect on loopback: answered at once, accepted or refused.
    static func connects(to port: Int) -> Bool {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    @Test("a client connecting while the port is checked, again and again, is never accepted")
    func checkNeverAccepts() async throws {
        let port = try await Self.freePort()
        let checking = Atomic<Bool>(true)
        let tries = Atomic<Int>(0)
        let accepted = Atomic<Int>(0)
        // An OS thread of its own: blocking connects stay off the cooperative pool, which a test run
        // on two busy cores may not give a task for minutes.
        let prober = Thread {
            while checking.load(ordering: .relaxed) {
                if Self.connects(to: port) { accepted.add(1, ordering: .relaxed) }
                tries.add(1, ordering: .relaxed)
            }
        }
        prober.start()
        // Check until the prober has tried 500 times while checks ran (bounded, should it stall).
        var checks = 0
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while tries.load(ordering: .relaxed) < 500, ContinuousClock.now < deadline {
            try await PortCheck.ensureFree(host: "127.0.0.1", port: port)
            checks += 1
        }
        checking.store(false, ordering: .relaxed)
        let tried = tries.load(ordering: .relaxed)
        #expect(tried >= 500, "the prober made \(tried) tries in a minute")
        #expect(
            accepted.load(ordering: .relaxed) == 0, "\(accepted.load(ordering: .relaxed)) of \(tried) connections were accepted by \(checks) checks")
    }

    @Test("a port another process listens on is in use; a free one passes, on IPv4 and IPv6 loopback")
    func inUseAndFree() async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let taken = try #require(listener.localAddress?.port)
        do {
            try await PortCheck.ensureFree(host: "127.0.0.1", port: taken)
            Issue.record("a port with a listener passed the check")
        } catch let error as StartupError {
            #expect(error.description == "port \(taken) is in use; choose another with --port")
        }
        try await listener.close()
        try await PortCheck.ensureFree(host: "127.0.0.1", port: taken)
        try await PortCheck.ensureFree(host: "::1", port: try await Self.freePort())
    }
}
