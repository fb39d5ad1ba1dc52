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
}
