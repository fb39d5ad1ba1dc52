import Foundation
import Testing

/// The store is the engine's alone (ARCHITECTURE.md): the server, the emulator and the CLI ask
/// `AppleIDProvider` for read models and operations; they neither reach `provider.store` nor name a
/// store type. This reads their sources, so CI fails on a new use.
@Suite("The store belongs to the engine")
struct StoreOwnershipTests {
    /// The modules that must go through the engine.
    static let guardedFolders = ["Sources/AppleIDServer", "Sources/SignInWithAppleTesting", "Sources/siwa"]

    /// The composition root opens the database and hands it to the engine, so it may name store
    /// types; it too never reads or writes through `provider.store`.
    static let compositionRoot = ["Sources/AppleIDServerApp"]

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("no file of the server, the emulator or the CLI reaches the store or names a store type")
    func storeStaysInTheEngine() throws {
        let storeTypes = try Self.storeTypeNames()
        // The scan would pass vacuously if the declarations moved or were renamed.
        #expect(storeTypes.isSuperset(of: ["ProviderStore", "MemoryStore", "SQLStore", "FlowRecordStore", "OutboxLeaseStore"]))
        let typeAlternatives = storeTypes.sorted().joined(separator: "|")
        // Simple word boundaries: Unicode's default ones join `store.client` into one word.
        let use = try Regex(#"\.store\b|\b(?:"# + typeAlternatives + #")\b"#).wordBoundaryKind(.simple)
        let offenders = try Self.lines(in: Self.guardedFolders, matching: use)
        #expect(offenders.isEmpty, "ask the engine (AppleIDProvider) instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the composition root opens the store for the engine but never reaches into it")
    func compositionRootHandsTheStoreOver() throws {
        // `.store(opened)` hands the store over (``ProviderStorage/store(_:)``); `.store` alone reaches into it.
        let reach = try Regex(#"\.store\b(?!\()"#).wordBoundaryKind(.simple)
        #expect(try Self.lines(in: Self.compositionRoot, matching: try Regex(#"storage: \.store\("#)).count == 1, "the scan sees the hand-over")
        let offenders = try Self.lines(in: Self.compositionRoot, matching: reach)
        #expect(offenders.isEmpty, "ask the engine (AppleIDProvider) instead:\n\(offenders.joined(separator: "\n"))")
    }

    /// Every module folder under `Sources` but `owner`'s and the stores' (memory, SQL), which implement
    /// every area's store protocols: where an area's store protocol must not be named.
    static func sourceFolders(besides owner: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: packageRoot.appending(path: "Sources").path)
            .filter { ![owner, "AppleIDMemoryStore", "AppleIDStore"].contains($0) }.map { "Sources/" + $0 }.sorted()
    }

    /// Every line of the Swift files under `folders` that `pattern` matches, as `file:line: match`.
    static func lines(in folders: [String], matching pattern: Regex<AnyRegexOutput>) throws -> [String] {
        try lines(inFiles: try swiftFiles(in: folders), matching: pattern)
    }

    /// Every line of `files` that `pattern` matches, as `file:line: match`.
    static func lines(inFiles files: [String], matching pattern: Regex<AnyRegexOutput>) throws -> [String] {
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: packageRoot.appending(path: file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let match = line.firstMatch(of: pattern) { found.append("\(file):\(number + 1): \(match.output[0].substring ?? "")") }
            }
        }
        return found
    }

    /// Every type whose name ends in `Store` declared by the engine, the e-mail sources, the organizations, the relay,
    /// the memory store or the SQL stores: the storage protocols, their compositions and the implementations.
    static func storeTypeNames(
        in folders: [String] = [
            "Sources/AppleIDProvider", "Sources/AppleIDEmailSources", "Sources/AppleIDOrganizations", "Sources/AppleIDRelay",
            "Sources/AppleIDMemoryStore", "Sources/AppleIDStore",
        ]
    ) throws -> Set<String> {
        let declaration = #/(?:protocol|class|struct|actor|enum|typealias)\s+([A-Z][A-Za-z]*Store)\b/#.wordBoundaryKind(.simple)
        var names: Set<String> = []
        for file in try swiftFiles(in: folders) {
            let text = try String(contentsOf: packageRoot.appending(path: file), encoding: .utf8)
            for match in text.matches(of: declaration) { names.insert(String(match.output.1)) }
        }
        return names
    }

    /// The declaration of ``ProviderStore``, the engine's composite: the protocols it holds.
    static func providerStoreComposite() throws -> String {
        let text = try String(contentsOf: packageRoot.appending(path: "Sources/AppleIDProvider/Storage/ProviderStore.swift"), encoding: .utf8)
        let start = try #require(text.range(of: "public typealias ProviderStore ="))
        // The declaration runs to the first blank line.
        let composite = String(text[start.lowerBound...]).components(separatedBy: "\n\n")[0]
        #expect(composite.contains("AccountStore"), "the scan still sees the composite")
        return composite
    }

    /// The Swift files under `folders`, as paths relative to the package root.
    static func swiftFiles(in folders: [String]) throws -> [String] {
        var files: [String] = []
        for folder in folders {
            let base = packageRoot.appending(path: folder).path
            guard let paths = FileManager.default.subpaths(atPath: base) else { throw MissingFolder(path: base) }
            files += paths.filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }
        }
        #expect(!files.isEmpty, "no Swift files found under \(folders)")
        return files.sorted()
    }

    struct MissingFolder: Error {
        let path: String
    }
}
