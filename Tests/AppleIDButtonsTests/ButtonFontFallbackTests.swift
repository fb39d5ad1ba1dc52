import Foundation
import Logging
import ServerTestSupport
import Testing

@testable import AppleIDButtons

/// What the server answers without them: `Tests/AppleIDServerTests/Buttons/ButtonFontAnswerTests`.
@Suite("Button fonts missing")
struct ButtonFontFallbackTests {
    @Test("a missing font is logged once, its letters fall back, and the image is still drawn")
    func missingFonts() async throws {
        let lines = RecordingLogHandler.Lines()
        let renderer = try ButtonRenderer(
            logger: Logger(label: "test") { _ in RecordingLogHandler(lines: lines) },
            fontSources: [
                .init(path: "/nonexistent/NotoSansArabic-Regular.ttf", package: "fonts-noto-core", purpose: "Arabic"),
                .init(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", package: "fonts-dejavu-core", purpose: "fallback"),
            ], cjkPath: "/nonexistent/cjk.ttc")
        let japanese = ButtonSpec(width: 200, height: 40, locale: try #require(ButtonLocale(rawValue: "ja_JP")))
        let arabic = ButtonSpec(width: 200, height: 40, locale: try #require(ButtonLocale(rawValue: "ar_SA")))
        for spec in [japanese, japanese, arabic] {
            let canvas = try #require(PNGCodec.decode(try await renderer.png(spec)))
            #expect(canvas.width == 200 && canvas.height == 40)
            #expect((0..<200).contains { x in canvas[x, 20].red > 128 })  // white ink on the black button
        }
        let messages = lines.all.map(\.message)
        #expect(messages.filter { $0.hasPrefix("Button font missing") }.count == 2)
        #expect(lines.all.contains { $0.metadata["package"] == "fonts-noto-cjk" })
        // Kana are in no font left: said once, though the title was drawn twice.
        #expect(messages.filter { $0.hasPrefix("No installed font") }.count == 1)
    }

    /// This machine's fonts, but no Noto Sans CJK: what a server without `fonts-noto-cjk` has.
    static let withoutCJK = ButtonFontFiles(
        sources: ButtonFontFiles.installed.sources,
        cjk: .init(path: "/nonexistent/NotoSansCJK-Regular.ttc", package: "fonts-noto-cjk", purpose: "Chinese, Japanese and Korean"))

    @Test("the start warning names the package to install, and says what its absence does")
    func startWarning() throws {
        let lines = RecordingLogHandler.Lines()
        _ = try ButtonRenderer(logger: Logger(label: "test") { _ in RecordingLogHandler(lines: lines) }, fontFiles: Self.withoutCJK)
        let warning = try #require(lines.all.first { $0.metadata["package"] == "fonts-noto-cjk" })
        #expect(warning.message.contains("install fonts-noto-cjk"), "\(warning.message)")
        #expect(!warning.message.contains("fall back"), "another font draws boxes, not Japanese")
    }
}

@Suite("Button font shipped with siwa")
struct BundledButtonFontTests {
    @Test("the shipped font is found under the folder above bin/, last, and only when it is there")
    func lookup() {
        let system = ButtonFontFiles.system
        let shipped = "/opt/siwa-0.9.0/share/siwa/fonts/DejaVuSans.ttf"
        let found = system.addingBundledFont(executable: URL(fileURLWithPath: "/opt/siwa-0.9.0/bin/siwa")) { $0 == shipped }
        #expect(found.sources.map(\.path) == system.sources.map(\.path) + [shipped])
        #expect(found.cjk == system.cjk)
        let absent = system.addingBundledFont(executable: URL(fileURLWithPath: "/opt/siwa-0.9.0/bin/siwa")) { _ in false }
        #expect(absent.sources == system.sources)
        #expect(system.addingBundledFont(executable: nil) { _ in true }.sources == system.sources)
    }
}
