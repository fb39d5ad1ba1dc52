import CoreMetrics
import Foundation
import Logging

/// Where a started engine keeps its records. The engine alone holds the store: whoever starts it
/// chooses the storage, and from then on asks the engine for operations and read models.
public struct ProviderStorage: Sendable {
    package let store: any ProviderStore

    /// A store the composition root opened (`siwa serve`: SQLite or PostgreSQL from `AppleIDStore`).
    public static func store(_ store: any ProviderStore) -> ProviderStorage { ProviderStorage(store: store) }
}

extension AppleIDProvider {
    /// Loads (or creates) the signing keys in `storage` and wires the engine, as
    /// ``start(configuration:store:clock:random:keyFactory:logger:metrics:txtResolver:endpointResolver:)``
    /// does, without the caller naming a store type: `storage: .inMemory` for the emulator and tests.
    public static func start(
        configuration: ProviderConfiguration, storage: ProviderStorage, clock: any ProviderClock,
        random: any RandomSource = SystemRandomSource(), keyFactory: any SigningKeyFactory = GeneratingSigningKeyFactory(),
        logger: Logger = Logger(label: "AppleIDProvider"), metrics: any MetricsFactory = MetricsSystem.factory,
        txtResolver: any TXTResolver = UnconfiguredTXTResolver(),
        endpointResolver: any EndpointAddressResolver = UnconfiguredEndpointAddressResolver(),
        refusalObserver: (any RefusalObserver)? = nil
    ) async throws -> AppleIDProvider {
        try await start(
            configuration: configuration, store: storage.store, clock: clock, random: random, keyFactory: keyFactory, logger: logger,
            metrics: metrics, txtResolver: txtResolver, endpointResolver: endpointResolver, refusalObserver: refusalObserver)
    }
}
