import Foundation
import Testing

/// The console owns its store protocols (ARCHITECTURE.md), as the relay owns its: they are declared
/// in `AppleIDConsole`, called only there and implemented by the stores, and the engine's composite
/// ``ProviderStore`` holds none of them. This reads the sources, so CI fails on a new use.
@Suite("The console's store belongs to the console")
struct ConsoleStoreOwnershipTests {
    static let consoleFolder = "Sources/AppleIDConsole"
    /// Where the stores implement the console's protocols: the memory store's attached state and the SQL stores.
    static let implementations = ["Sources/AppleIDMemoryStore/", "Sources/AppleIDStore/"]

    static func consoleStores() throws -> Set<String> {
        try StoreOwnershipTests.storeTypeNames(in: [consoleFolder])
    }

    /// Every Swift source folder but the console's and the stores' (memory, SQL).
    static func otherSources() throws -> [String] {
        try StoreOwnershipTests.sourceFolders(besides: "AppleIDConsole")
    }

    @Test("no module but the console and the stores (memory, SQL) names a console store protocol")
    func consoleStoresStayInTheConsole() throws {
        let consoleStores = try Self.consoleStores()
        // The scan would pass vacuously if the declarations moved or were renamed.
        let expected: Set = [
            "ConsoleStore", "ConsoleSessionStore", "DeveloperAccountStore", "KeyDownloadStore", "RequestLogStore", "TeamInvitationStore",
            "TransferOfferStore",
        ]
        #expect(consoleStores == expected)
        let use = try Regex(#"\b(?:"# + consoleStores.sorted().joined(separator: "|") + #")\b"#).wordBoundaryKind(.simple)
        let offenders = try StoreOwnershipTests.lines(in: try Self.otherSources(), matching: use)
        #expect(offenders.isEmpty, "ask AppleIDConsole's operations instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("a console store method is called only from the console")
    func consoleStoreMethodsAreCalledInTheConsole() throws {
        let methods = try Self.distinctiveMethods()
        // The scan would pass vacuously if the protocols moved or lost their methods.
        #expect(methods.isSuperset(of: ["takePendingDownload", "redeemInvitation", "purgeConsoleSessions", "takeTransferOffer"]))
        let use = try Regex(#"\.(?:"# + methods.sorted().joined(separator: "|") + #")\("#).wordBoundaryKind(.simple)
        let offenders = try StoreOwnershipTests.lines(in: try Self.otherSources(), matching: use)
        #expect(offenders.isEmpty, "ask AppleIDConsole's operations instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("ProviderStore, the engine's composite, holds none of the console's store protocols")
    func providerStoreHoldsNoConsoleStore() throws {
        let composite = try StoreOwnershipTests.providerStoreComposite()
        for store in try Self.consoleStores() { #expect(!composite.contains(store), "ProviderStore: \(composite)") }
    }

    @Test(
        "every store protocol is small: fifteen methods at the most",
        arguments: ["Sources/AppleIDProvider", "Sources/AppleIDEmailSources", "Sources/AppleIDOrganizations", "Sources/AppleIDRelay", consoleFolder])
    func storeProtocolsAreSmall(_ folder: String) throws {
        let sizes = try Self.protocolSizes(in: folder)
        #expect(!sizes.isEmpty, "the scan sees the protocols of \(folder)")
        let large = sizes.filter { $0.value > 15 }
        #expect(large.isEmpty, "split by feature: \(large.sorted { $0.key < $1.key })")
    }

    /// The console protocols' method names that neither another module nor one of the console's
    /// operations declares a function of: a call of one outside the console is a call of its store.
    static func distinctiveMethods() throws -> Set<String> {
        let storage = consoleFolder + "/Storage/"
        let consoleFiles = try StoreOwnershipTests.swiftFiles(in: [consoleFolder])
        var names: Set<String> = []
        for file in consoleFiles where file.hasPrefix(storage) && !file.contains("+") { names.formUnion(try functionNames(in: file)) }
        let operations = consoleFiles.filter { !$0.hasPrefix(storage) }
        for file in try StoreOwnershipTests.swiftFiles(in: try otherSources()) + operations { names.subtract(try functionNames(in: file)) }
        return names
    }

    static func functionNames(in file: String) throws -> Set<String> {
        let text = try String(contentsOf: StoreOwnershipTests.packageRoot.appending(path: file), encoding: .utf8)
        return Set(text.matches(of: #/func\s+([a-zA-Z]+)\(/#).map { String($0.output.1) })
    }

    /// How many methods each `…Store` protocol declared under `folder` has.
    static func protocolSizes(in folder: String) throws -> [String: Int] {
        var sizes: [String: Int] = [:]
        for file in try StoreOwnershipTests.swiftFiles(in: [folder]) {
            let text = try String(contentsOf: StoreOwnershipTests.packageRoot.appending(path: file), encoding: .utf8)
            for match in text.matches(of: #/protocol\s+([A-Z][A-Za-z]*Store)\b[^{]*\{(?<body>[^}]*)\}/#) {
                sizes[String(match.output.1)] = match.output.body.matches(of: #/\n\s*func\s/#).count
            }
        }
        return sizes
    }
}
