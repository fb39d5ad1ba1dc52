import AppleIDProvider
import AppleIDStore
import Foundation
import Logging

extension TestEngine {
    /// An SQLite store in `directory` (created) and an engine over it, as `siwa serve` starts them.
    package static func freshServer(
        in directory: URL, seed: String, developmentMode: Bool = false
    ) async throws -> (SQLStore, SQLStoreShutdown, AppleIDProvider) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (store, shutdown) = try await SQLStore.sqlite(path: directory.appendingPathComponent("siwa.sqlite").path, logger: Logger(label: "test"))
        var configuration = ProviderConfiguration(issuer: "http://127.0.0.1:8080")
        configuration.passwordHashCost = 4
        configuration.developmentMode = developmentMode
        let provider = try await AppleIDProvider.start(
            configuration: configuration, storage: .store(store), clock: ManualClock(Fixtures.now), random: SeededRandomSource(seed: seed),
            keyFactory: FixedSigningKeyFactory(pems: Fixtures.signingKeys))
        return (store, shutdown, provider)
    }
}
