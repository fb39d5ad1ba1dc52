import Foundation
import Testing

/// The relay owns its store protocols (ARCHITECTURE.md): they are declared in `AppleIDRelay`, used
/// by it and implemented by the stores, and the engine's composite ``ProviderStore`` holds none of
/// them. The relay, in turn, asks the engine for what it knows instead of reading the engine's store.
/// This reads the sources, so CI fails on a new use.
@Suite("The relay's store belongs to the relay")
struct RelayStoreOwnershipTests {
    static let relayFolder = "Sources/AppleIDRelay"
    /// The relay over the storage a started engine was given: the place that meets the engine's
    /// store, on purpose.
    static let relayStorageFolder = "Sources/AppleIDRelay/Storage/"

    @Test("no module but the relay and the stores (memory, SQL) names a relay store protocol")
    func relayStoresStayInTheRelay() throws {
        let relayStores = try StoreOwnershipTests.storeTypeNames(in: [Self.relayFolder])
        // The scan would pass vacuously if the declarations moved or were renamed.
        #expect(relayStores == ["RelayMailStore", "RelayAcceptStore", "RelayDeliveryQueueStore", "RelayMailboxStore", "RelayRetentionStore"])
        let others = try StoreOwnershipTests.sourceFolders(besides: "AppleIDRelay")
        let use = try Regex(#"\b(?:"# + relayStores.sorted().joined(separator: "|") + #")\b"#).wordBoundaryKind(.simple)
        let offenders = try StoreOwnershipTests.lines(in: others, matching: use)
        #expect(offenders.isEmpty, "go through MailRelay instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the relay asks the engine: it neither reaches the engine's store nor names an engine store type")
    func relayAsksTheEngine() throws {
        let engineStores = try StoreOwnershipTests.storeTypeNames(in: ["Sources/AppleIDProvider"])
        #expect(engineStores.isSuperset(of: ["ProviderStore", "AccountStore", "TeamRegistryStore"]))
        let files = try StoreOwnershipTests.swiftFiles(in: [Self.relayFolder]).filter { !$0.hasPrefix(Self.relayStorageFolder) }
        #expect(files.contains("Sources/AppleIDRelay/MailRelay.swift"))
        let use = try Regex(#"provider\.store\b|\b(?:"# + engineStores.sorted().joined(separator: "|") + #")\b"#).wordBoundaryKind(.simple)
        let offenders = try StoreOwnershipTests.lines(inFiles: files, matching: use)
        #expect(offenders.isEmpty, "ask AppleIDProvider instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("ProviderStore, the engine's composite, holds none of the relay's store protocols")
    func providerStoreHoldsNoRelayStore() throws {
        let composite = try StoreOwnershipTests.providerStoreComposite()
        #expect(!composite.contains("Relay"), "ProviderStore: \(composite)")
    }
}
