import AppleIDProvider
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import SignInWithAppleTesting

@Suite("The emulator starts even when its port is taken in the meantime", .timeLimit(.minutes(5)))
struct EmulatorStartTests {
    @Test("a taken port: the server cannot listen, another port is tried, the body runs once")
    func takenPortIsRetried() async throws {
        let taken = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let takenPort = try #require(taken.localAddress?.port)
        let offered = Mutex<[Int]>([])
        let runs = Mutex(0)
        let ports: () async throws -> Int = {
            let port = offered.withLock { $0.isEmpty } ? takenPort : try await freeLoopbackPort()
            offered.withLock { $0.append(port) }
            return port
        }
        let baseURL = try await withAppleIDEmulator(
            clock: SystemClock(), keyFactory: GeneratingSigningKeyFactory(), logger: Logger(label: "test"), ports: ports
        ) { apple in
            runs.withLock { $0 += 1 }
            return apple.baseURL
        }
        try await taken.close()
        #expect(runs.withLock { $0 } == 1)
        let tried = offered.withLock { $0 }
        #expect(tried.count == 2 && tried.first == takenPort)
        #expect(baseURL == "http://127.0.0.1:\(tried[1])")
    }
}
