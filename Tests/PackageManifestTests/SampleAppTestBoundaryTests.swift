import Foundation
import Testing

/// Juice's tests test an app as its developers would: through the emulator's public surface, never
/// the engine (issue 39: what a kit user's tests need is an emulator method).
@Suite("Package: the sample app's tests use the emulator, not the engine")
struct SampleAppTestBoundaryTests {
    @Test("no file of Tests/JuiceTests imports AppleIDProvider or AppleIDConsole, or reaches apple.provider")
    func juiceTestsStayOutsideTheEngine() throws {
        let folder = ProductWeightTests.packageRoot.appendingPathComponent("Tests/JuiceTests")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "swift" }
        #expect(files.count > 10, "the reader sees the folder")
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let reachesEngine = ["import AppleIDProvider", "import AppleIDConsole", "apple.provider."].contains { text.contains($0) }
            if reachesEngine { offenders.append(file.lastPathComponent) }
        }
        #expect(offenders.isEmpty, "\(offenders.sorted())")
    }
}
