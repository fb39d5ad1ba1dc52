import AppleIDProvider

extension AppleIDProvider {
    /// The console's part of the storage the engine was started with: the memory store and the SQL
    /// stores implement the console's store protocols beside the engine's, in the same database.
    func consoleStore<Store>(_: Store.Type = Store.self) throws -> Store {
        guard let store = store as? Store else { throw ConsoleStorageMissing() }
        return store
    }

    var developerStore: any DeveloperAccountStore { get throws { try consoleStore() } }
    var consoleSessionStore: any ConsoleSessionStore { get throws { try consoleStore() } }
    var invitationStore: any TeamInvitationStore { get throws { try consoleStore() } }
    var transferOfferStore: any TransferOfferStore { get throws { try consoleStore() } }
    var keyDownloadStore: any KeyDownloadStore { get throws { try consoleStore() } }
}

/// The storage keeps no console records: its store does not implement the console's store protocols.
public struct ConsoleStorageMissing: Error, Sendable {}
