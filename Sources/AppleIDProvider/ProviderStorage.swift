/// Where a started engine keeps its records. The engine alone holds the store: whoever starts it
/// chooses the storage, and from then on asks the engine for operations and read models.
public struct ProviderStorage: Sendable {
    package let store: any ProviderStore

    /// A store the composition root opened (`siwa serve`: SQLite or PostgreSQL from `AppleIDStore`);
    /// `.inMemory` (`AppleIDMemoryStore`) for the emulator and tests.
    public static func store(_ store: any ProviderStore) -> ProviderStorage { ProviderStorage(store: store) }
}
