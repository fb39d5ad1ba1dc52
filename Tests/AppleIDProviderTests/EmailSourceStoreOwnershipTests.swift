import Foundation
import Testing

/// The e-mail sources own their store protocol, as the relay and the console own theirs: it is declared
/// in `AppleIDEmailSources`, named only there and in the stores that implement it, and the engine's
/// composite ``ProviderStore`` does not hold it. The console (which edits the sources) and the relay
/// (which reads them) call the module's operations. This reads the sources, so CI fails on a new use.
@Suite("The e-mail sources' store belongs to the e-mail sources")
struct EmailSourceStoreOwnershipTests {
    static let folder = "Sources/AppleIDEmailSources"
    /// The operations over the storage a started engine was given: the place that meets the engine's store, on purpose.
    static let storageFolder = "Sources/AppleIDEmailSources/Storage/"

    @Test("no module but the e-mail sources and the stores (memory, SQL) names EmailSourceStore")
    func storeStaysInTheModule() throws {
        let stores = try StoreOwnershipTests.storeTypeNames(in: [Self.folder])
        // The scan would pass vacuously if the declaration moved or was renamed.
        #expect(stores == ["EmailSourceStore"])
        let others = try StoreOwnershipTests.sourceFolders(besides: "AppleIDEmailSources")
        let offenders = try StoreOwnershipTests.lines(in: others, matching: try Regex(#"\bEmailSourceStore\b"#).wordBoundaryKind(.simple))
        #expect(offenders.isEmpty, "call the e-mail source operations instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the operations ask the engine: they neither reach the engine's store nor name an engine store type")
    func operationsAskTheEngine() throws {
        let engineStores = try StoreOwnershipTests.storeTypeNames(in: ["Sources/AppleIDProvider"])
        #expect(engineStores.isSuperset(of: ["ProviderStore", "RegistryStore", "TeamRegistryStore"]))
        let files = try StoreOwnershipTests.swiftFiles(in: [Self.folder]).filter { !$0.hasPrefix(Self.storageFolder) }
        #expect(files.contains("Sources/AppleIDEmailSources/AppleIDProvider+EmailSources.swift"))
        let use = try Regex(#"\bstore\.|\b(?:"# + engineStores.sorted().joined(separator: "|") + #")\b"#).wordBoundaryKind(.simple)
        let offenders = try StoreOwnershipTests.lines(inFiles: files, matching: use)
        #expect(offenders.isEmpty, "ask AppleIDProvider instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("ProviderStore, the engine's composite, does not hold EmailSourceStore")
    func providerStoreHoldsNoEmailSourceStore() throws {
        #expect(!(try StoreOwnershipTests.providerStoreComposite()).contains("EmailSource"))
    }
}
