import AppleIDConsole
import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import EnvironmentFile
import Foundation
import Logging

/// A fresh engine over the memory store, as a fresh data directory gives: its own randomness (so
/// that only the file can make identities equal), a fixed clock, development mode on unless told.
enum DeclarationHarness {
    static let now = Date(timeIntervalSince1970: 1_795_240_800)
    /// RSA-2048 keys made once with openssl and kept in `Tests/Fixtures/rsa` (made at run time, each took a thread every test shares): one set serves every engine.
    static let signingKeys: [String] = (1...4).map { number in
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/rsa/test-key-\(number).pem")
        // Fixtures are part of the repository; a missing one is a broken checkout, not a test result.
        guard let pem = try? String(contentsOf: url, encoding: .utf8) else { preconditionFailure("missing fixture \(url.path)") }
        return pem
    }

    static func freshProvider(random seed: String = UUID().uuidString, developmentMode: Bool = true) async throws -> AppleIDProvider {
        var configuration = ProviderConfiguration(issuer: "https://id.example.com")
        configuration.passwordHashCost = 4
        configuration.developmentMode = developmentMode
        return try await AppleIDProvider.start(
            configuration: configuration, storage: .store(MemoryStore()), clock: ManualClock(now), random: SeededRandomSource(seed: seed),
            keyFactory: FixedSigningKeyFactory(pems: signingKeys), logger: Logger(label: "test"))
    }

    /// The provider's export without its seed, which is fresh random each time: what two exports
    /// of the same store have in common.
    static func export(_ provider: AppleIDProvider) async throws -> EnvironmentDeclaration {
        var declaration = try await provider.exportDeclaration(withSecrets: true)
        declaration.seed = nil
        return declaration
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The talk's setup, as a CI job would declare it.
    static let juice = """
        seed: ci
        server:
          port: 8080
        teams:
          - name: Juice Team
            email_sources: [orders@juice.example.com]
        app_ids:
          - bundle_id: com.example.juice
            description: Juice
            notification_endpoint: https://juice.example.com/apple/notifications
        services_ids:
          - identifier: com.example.juice.web
            description: Juice on the web
            primary_app_id: com.example.juice
            return_urls:
              - https://juice.example.com/auth/apple/callback
        keys:
          - name: Juice key
            primary_app_id: com.example.juice
        apple_ids:
          - apple_id: maria.ruiz@example.com
            first_name: Maria
            last_name: Ruiz
          - apple_id: robin.unknown@example.com
            password: robin-password
            first_name: Robin
            last_name: Unknown
            real_user_status: 1
            two_factor: false
        developers:
          - email: developer@example.com
            name: Demo Developer
            password: developer-password
        """
}
