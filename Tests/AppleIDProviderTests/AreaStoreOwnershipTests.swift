import Foundation
import Testing

/// The e-mail sources and the organizations' administration own their store protocols, as the relay
/// and the console own theirs: each is declared in its module, named only there and in the stores that
/// implement it, and the engine's composite ``ProviderStore`` does not hold it. The modules above them
/// (the console, the relay, the emulator) call their operations. This reads the sources, so CI fails
/// on a new use.
@Suite("An area's store belongs to its module: the e-mail sources, the organizations")
struct AreaStoreOwnershipTests {
    struct Area: Sendable, CustomTestStringConvertible {
        var module: String
        /// The store protocols the module declares.
        var stores: Set<String>
        /// One file of its operations (the scan would pass vacuously without it).
        var operations: String

        var folder: String { "Sources/" + module }
        /// The operations over the storage a started engine was given: the place that meets the engine's store, on purpose.
        var storageFolder: String { folder + "/Storage/" }
        var testDescription: String { module }
    }

    static let areas = [
        Area(module: "AppleIDEmailSources", stores: ["EmailSourceStore"], operations: "AppleIDProvider+EmailSources.swift"),
        Area(module: "AppleIDOrganizations", stores: ["OrganizationAdminStore"], operations: "Organizations.swift"),
    ]

    @Test("no module but the area's and the stores (memory, SQL) names its store protocol", arguments: areas)
    func storeStaysInTheModule(_ area: Area) throws {
        let stores = try StoreOwnershipTests.storeTypeNames(in: [area.folder])
        // The scan would pass vacuously if the declaration moved or was renamed.
        #expect(stores == area.stores)
        let others = try StoreOwnershipTests.sourceFolders(besides: area.module)
        let names = try Regex(#"\b(?:"# + stores.sorted().joined(separator: "|") + #")\b"#).wordBoundaryKind(.simple)
        let offenders = try StoreOwnershipTests.lines(in: others, matching: names)
        #expect(offenders.isEmpty, "call \(area.module)'s operations instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the operations ask the engine: they neither reach the engine's store nor name an engine store type", arguments: areas)
    func operationsAskTheEngine(_ area: Area) throws {
        let engineStores = try StoreOwnershipTests.storeTypeNames(in: ["Sources/AppleIDProvider"])
        #expect(engineStores.isSuperset(of: ["ProviderStore", "RegistryStore", "OrganizationStore"]))
        let files = try StoreOwnershipTests.swiftFiles(in: [area.folder]).filter { !$0.hasPrefix(area.storageFolder) }
        #expect(files.contains(area.folder + "/" + area.operations))
        let use = try Regex(#"\bstore\.|\b(?:"# + engineStores.sorted().joined(separator: "|") + #")\b"#).wordBoundaryKind(.simple)
        let offenders = try StoreOwnershipTests.lines(inFiles: files, matching: use)
        #expect(offenders.isEmpty, "ask AppleIDProvider instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("ProviderStore, the engine's composite, does not hold the area's store protocol", arguments: areas)
    func providerStoreHoldsNoAreaStore(_ area: Area) throws {
        let composite = try StoreOwnershipTests.providerStoreComposite()
        for store in area.stores { #expect(!composite.contains(store), "ProviderStore: \(composite)") }
    }
}
