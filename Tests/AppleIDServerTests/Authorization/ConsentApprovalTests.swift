import AppleIDConsole
import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import AppleIDStore
import Foundation
import HummingbirdTesting
import Logging
import Testing

/// Approving a consent page takes its interaction: one page, one answer, one code.
@Suite("Consent approval: one page yields one code")
struct ConsentApprovalTests {
    enum StoreKind: String, CaseIterable, Sendable { case memory, sqlite }

    @Test("two approvals of one consent page, both loaded before either finishes, issue one code", arguments: StoreKind.allCases)
    func concurrentApprovals(of kind: StoreKind) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-approval-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (store, shutdown): (any ProviderStore & RelayMailStore & RequestLogStore, () async throws -> Void) =
            switch kind {
            case .memory: (MemoryStore(), {})
            case .sqlite: try await SQLStore.sqlite(path: path, logger: Logger(label: "test"))
            }
        do {
            let server = try await TestServer.make(store: store)
            try await server.app.test(.router) { client in
                let (action, _) = try await WebFlowTests.signInUntilConsent(Browser(client), server: server)
                let id = try #require(action.split(separator: "/").last.map(String.init))
                // Both submissions passed `load` (same browser, same CSRF token) before either approved.
                let first = try #require(try await server.arrange.interaction(id: id))
                let second = try #require(try await server.arrange.interaction(id: id))
                let choices = ConsentChoices(firstName: "Maria", lastName: "R.", hideEmail: true)
                async let a = server.provider.interactions.approve(first, choices: choices)
                async let b = server.provider.interactions.approve(second, choices: choices)
                let codes = try await [a, b].compactMap { outcome -> String? in
                    guard case .finished(let answer) = outcome else { return nil }
                    return answer.issued?.code
                }
                #expect(codes.count == 1, "codes issued: \(codes.count)")
            }
        } catch {
            try await shutdown()
            throw error
        }
        try await shutdown()
    }
}
