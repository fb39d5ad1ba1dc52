import AppleIDServer
import AppleIDServerApp
import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import ServerTestSupport
import Testing

@testable import AppleIDButtons

/// `/appleid/button` without a font package: the renderer's own fallback and start warning are
/// `Tests/AppleIDButtonsTests/ButtonFontFallbackTests`.
@Suite("Button fonts missing: the answers of /appleid/button")
struct ButtonFontAnswerTests {
    /// This machine's fonts, but no Noto Sans CJK: what a server without `fonts-noto-cjk` has.
    static let withoutCJK = ButtonFontFiles(
        sources: ButtonFontFiles.installed.sources,
        cjk: .init(path: "/nonexistent/NotoSansCJK-Regular.ttc", package: "fonts-noto-cjk", purpose: "Chinese, Japanese and Korean"))

    @Test(
        "without the CJK font, a CJK button is a 503 naming the package and never cached; other locales and the logo are drawn",
        arguments: ["ja_JP", "ko_KR", "zh_CN", "zh_TW", "zh_HK"])
    func cjkWithoutFont(_ locale: String) async throws {
        let server = try await TestServer.make()
        let options = ServerOptions(adminToken: TestServer.adminToken)
        let additions = try ServeAdditions.all(metrics: PrometheusCollectorRegistry(), adminToken: options.adminToken, fontFiles: Self.withoutCJK)
        let app = Application(router: try await buildRouter(provider: server.provider, relay: server.relay, options: options, additions: additions))
        try await app.test(.router) { client in
            for _ in 0..<2 {  // the second answer is not a cached box either
                let refused = try await client.execute(uri: "/appleid/button?locale=\(locale)&width=200&height=40", method: .get)
                #expect(refused.status == .serviceUnavailable)
                #expect(refused.headers[.cacheControl] == "no-store")
                #expect(refused.headers[.contentType]?.hasPrefix("text/plain") == true)
                #expect(String(buffer: refused.body).contains("fonts-noto-cjk"), "\(String(buffer: refused.body))")
            }
            let logo = try await client.execute(uri: "/appleid/button/logo?locale=\(locale)&width=40&height=40", method: .get)
            #expect(logo.status == .ok, "the logo has no title to draw")
            let english = try await client.execute(uri: "/appleid/button?locale=en_US&width=200&height=40", method: .get)
            #expect(english.status == .ok)
            #expect(english.headers[.contentType] == "image/png")
        }
    }

    @Test("with no font package but the shipped font, Latin titles are drawn; Thai and Japanese are a 503 naming their package")
    func onlyTheShippedFont() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-fonts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let font = folder.appendingPathComponent(ButtonFontFiles.bundledFontPath)
        try FileManager.default.createDirectory(at: font.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: font.path)
        let none = ButtonFontFiles(
            sources: ButtonFontFiles.system.sources.map { .init(path: "/nonexistent" + $0.path, package: $0.package, purpose: $0.purpose) },
            cjk: .init(path: "/nonexistent/NotoSansCJK-Regular.ttc", package: "fonts-noto-cjk", purpose: "Chinese, Japanese and Korean"))
        let fontFiles = none.addingBundledFont(executable: folder.appendingPathComponent("bin/siwa"))
        #expect(fontFiles.sources.last?.path == font.path)

        let server = try await TestServer.make()
        let options = ServerOptions(adminToken: TestServer.adminToken)
        let additions = try ServeAdditions.all(metrics: PrometheusCollectorRegistry(), adminToken: options.adminToken, fontFiles: fontFiles)
        let app = Application(router: try await buildRouter(provider: server.provider, relay: server.relay, options: options, additions: additions))
        try await app.test(.router) { client in
            for locale in ["en_US", "ru_RU", "el_GR"] {
                let drawn = try await client.execute(uri: "/appleid/button?locale=\(locale)&width=200&height=40", method: .get)
                #expect(drawn.status == .ok, "\(locale)")
                let canvas = try #require(PNGCodec.decode(Array(drawn.body.readableBytesView)))
                #expect((0..<200).contains { x in canvas[x, 20].red > 128 }, "white ink on the black button: \(locale)")
            }
            for (locale, package) in [("th_TH", "fonts-noto-core"), ("ja_JP", "fonts-noto-cjk")] {
                let refused = try await client.execute(uri: "/appleid/button?locale=\(locale)&width=200&height=40", method: .get)
                #expect(refused.status == .serviceUnavailable, "\(locale)")
                #expect(String(buffer: refused.body).contains("apt-get install \(package)"), "\(String(buffer: refused.body))")
            }
        }
    }
}
