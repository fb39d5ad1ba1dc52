import Foundation
import Testing

/// Tests are laid out like the code (issue 39, step 3): the server's tests sit in feature folders
/// that mirror `Sources/AppleIDServer` (`Admin/`, `Token/`, `Console/`, …), not in one flat folder.
@Suite("Package: the server's tests sit in feature folders")
struct TestLayoutTests {
    @Test("Tests/AppleIDServerTests has at most ten Swift files of its own; the rest are in feature folders")
    func serverTestsAreInFeatureFolders() throws {
        let folder = ProductWeightTests.packageRoot.appendingPathComponent("Tests/AppleIDServerTests")
        let entries = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
        let topLevel = entries.filter { $0.pathExtension == "swift" }.map(\.lastPathComponent).sorted()
        let folders = try entries.filter { try $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true }.map(\.lastPathComponent)
        #expect(folders.contains("Token") && folders.contains("Admin"), "the reader sees the feature folders: \(folders.sorted())")
        #expect(topLevel.count <= 10, "move them into a feature folder: \(topLevel)")
    }

    /// What sends a request to the server's router: the in-process client (`app.test(.router)`, its
    /// `execute`), the browser over it, and the console's signed-in browser (`ConsolePages.signedIn`).
    static let routerDrivers = [".test(.router)", ".execute(", "Browser", "ConsolePages.signedIn"]

    @Test("every file of Tests/AppleIDServerTests but its Support/ drives the router; tests of code with no route are in its module's target")
    func serverTestsDriveTheRouter() throws {
        let root = ProductWeightTests.packageRoot
        let folder = root.appendingPathComponent("Tests/AppleIDServerTests")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .map { String($0.path.dropFirst(folder.path.count + 1)) }.filter { !$0.hasPrefix("Support/") }
        #expect(files.count > 50, "the reader sees the server's tests")
        var silent: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            if !Self.routerDrivers.contains(where: text.contains) { silent.append(file) }
        }
        #expect(silent.isEmpty, "send a request through the router, or move the file to the target of the module it tests: \(silent.sorted())")
    }

    /// Where the server's tests may reach the engine's store: the one arrangement helper and the seed
    /// of every test engine, both in the support they share with the engine's and the store's tests
    /// (`Tests/ServerTestSupport`). The start-up tests, which hand the store to the composition root as
    /// `siwa serve` does, are the composition root's own (`Tests/AppleIDServerAppTests`).
    static let storeReachers: Set = [
        "Tests/ServerTestSupport/Engine/StoreArrangement.swift", "Tests/ServerTestSupport/Engine/TestEngine.swift",
    ]

    @Test("the server's tests and their support plant rows through StoreArrangement only; they read through the engine's read models")
    func storeIsReachedThroughTheArrangement() throws {
        let root = ProductWeightTests.packageRoot
        var files: [URL] = []
        for folder in ["Tests/AppleIDServerTests", "Tests/ServerTestSupport"] {
            files += try #require(FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil))
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        }
        #expect(files.count > 100, "the reader sees the server's tests")
        var reaching: [String] = []
        for file in files where try String(contentsOf: file, encoding: .utf8).contains("provider.store") {
            reaching.append(String(file.path.dropFirst(root.path.count + 1)))
        }
        #expect(Set(reaching).isSubset(of: Self.storeReachers), "plant through StoreArrangement, read through the engine: \(reaching.sorted())")
        #expect(reaching.contains("Tests/ServerTestSupport/Engine/StoreArrangement.swift"), "the scan sees the helper")
    }
}
