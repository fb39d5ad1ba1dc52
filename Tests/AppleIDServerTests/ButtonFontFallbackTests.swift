import Logging
import Testing

@testable import AppleIDButtons

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
}
