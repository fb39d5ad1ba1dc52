import AppleIDProvider

extension MailRelay {
    /// The relay over the storage the engine was started with (the emulator's `.inMemory`): its mail
    /// is kept in the same store, under the same lock and in the same seed snapshot, as `siwa serve`
    /// keeps it in the same database.
    public init(provider: AppleIDProvider, storage: ProviderStorage, settings: RelaySettings = RelaySettings()) throws {
        guard let store = storage.store as? any RelayMailStore else { throw RelayStorageMissing() }
        self.init(provider: provider, store: store, settings: settings)
    }
}

/// The storage keeps no relay mail: its store does not implement ``RelayMailStore``.
public struct RelayStorageMissing: Error, Sendable {}
