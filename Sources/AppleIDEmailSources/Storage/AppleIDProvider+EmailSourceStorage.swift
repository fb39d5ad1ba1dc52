import AppleIDProvider

extension AppleIDProvider {
    /// The relay's e-mail sources in the storage the engine was started with: the memory store and the
    /// SQL stores keep them beside the engine's records, in the same database.
    var emailSourceStore: any EmailSourceStore {
        get throws {
            guard let store = store as? any EmailSourceStore else { throw EmailSourceStorageMissing() }
            return store
        }
    }
}

/// The storage keeps no e-mail sources: its store does not implement ``EmailSourceStore``.
public struct EmailSourceStorageMissing: Error, Sendable {}
