import AppleIDProtocol
import AppleIDProvider
import AppleIDServerApp
import Logging
import ServerTestSupport
import ServiceLifecycle
import Testing

@Suite("Request log: batches written by the flusher service")
struct RequestLogFlusherTests {
    @Test("what the engine holds back is in the store once the flusher has run and shut down gracefully")
    func writtenByTheFlusher() async throws {
        let server = try await TestEngine.make()
        let refused = TokenRequest(grantType: "authorization_code", clientID: TestEngine.servicesID.rawValue, clientSecret: "not a secret")
        for _ in 0..<3 { _ = await server.provider.token(refused) }
        #expect(try await server.arrange.storedRequestLog(clientID: TestEngine.servicesID, proven: false).isEmpty)

        let group = ServiceGroup(
            configuration: .init(
                services: [PeriodicService.requestLogFlush(provider: server.provider, interval: .seconds(3600))], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        let log = try await server.arrange.storedRequestLog(clientID: TestEngine.servicesID, proven: false)
        #expect(log.count == 3)
        #expect(log.allSatisfy { $0.outcome == "invalid_client" && $0.endpoint == .token })
    }
}
