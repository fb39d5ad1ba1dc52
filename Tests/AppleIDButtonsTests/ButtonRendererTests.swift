import Foundation
import Logging
import Testing

@testable import AppleIDButtons

@Suite("Button images")
struct ButtonRendererTests {
    static let renderer = Result { try ButtonRenderer(logger: Logger(label: "test")) }

    static func render(_ spec: ButtonSpec) async throws -> Canvas {
        let png = try await renderer.get().png(spec)
        let canvas = try #require(PNGCodec.decode(png))
        if let folder = ProcessInfo.processInfo.environment["BUTTON_ARTIFACTS"] {
            let name = "\(spec.layout)-\(spec.color)-\(spec.title.rawValue)-\(spec.locale)-\(spec.scale)x.png"
            try Data(png).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
        }
        return canvas
    }

    /// Columns holding the title's or logo's ink: pixels far from the background colour.
    static func inkColumns(_ canvas: Canvas, color: ButtonSpec.Color) -> [Int] {
        (0..<canvas.width).filter { x in
            (0..<canvas.height).contains { y in
                let pixel = canvas[x, y]
                return pixel.alpha == 255 && (color == .black ? pixel.red > 128 : pixel.red < 128)
            }
        }
    }

    @Test(
        "the PNG is width×scale by height×scale pixels (size×scale for the logo)",
        arguments: [(ButtonSpec.Layout.center, 1), (.center, 2), (.left, 3), (.logo, 1), (.logo, 6)])
    func sizes(layout: ButtonSpec.Layout, scale: Int) async throws {
        let canvas = try await Self.render(ButtonSpec(layout: layout, width: 200, height: 44, scale: scale))
        #expect(canvas.width == (layout == .logo ? 44 : 200) * scale)
        #expect(canvas.height == 44 * scale)
    }

    @Test("the background is the button's colour", arguments: ButtonSpec.Color.allCases)
    func background(color: ButtonSpec.Color) async throws {
        let canvas = try await Self.render(ButtonSpec(color: color))
        let pixel = canvas[3, 15]
        let expected: UInt8 = color == .black ? 0 : 255
        #expect(pixel.red == expected && pixel.green == expected && pixel.blue == expected && pixel.alpha == 255)
    }

    @Test("a border outlines a white button only when asked for")
    func border() async throws {
        let bordered = try await Self.render(ButtonSpec(color: .white, border: true, scale: 2))
        let plain = try await Self.render(ButtonSpec(color: .white, border: false, scale: 2))
        #expect(bordered[0, 30].red < 64)
        #expect(bordered[4, 30].red == 255)
        #expect(plain[0, 30].red == 255)
    }

    @Test("square corners at radius 0, transparent corners when rounded")
    func corners() async throws {
        #expect(try await Self.render(ButtonSpec(borderRadius: 0))[0, 0].alpha == 255)
        #expect(try await Self.render(ButtonSpec(borderRadius: 50))[0, 0].alpha == 0)
    }

    @Test("title and logo stay inside the margins", arguments: ["en_US", "de_DE", "ar_SA", "th_TH", "ja_JP", "ru_RU"])
    func margins(locale: String) async throws {
        let spec = ButtonSpec(width: 140, height: 30, title: .continue, scale: 2, locale: try #require(ButtonLocale(rawValue: locale)))
        let canvas = try await Self.render(spec)
        let ink = Self.inkColumns(canvas, color: .black)
        let margin = Int((0.08 * Double(canvas.width)).rounded(.down))
        #expect(ink.count > 60)
        #expect(try #require(ink.min()) >= margin)
        #expect(try #require(ink.max()) < canvas.width - margin)
    }

    @Test("the logo-only button draws the logo in its middle and no title")
    func logoOnly() async throws {
        let canvas = try await Self.render(ButtonSpec(layout: .logo, height: 40, color: .white, scale: 2))
        let ink = Self.inkColumns(canvas, color: .white)
        #expect(!ink.isEmpty)
        let middle = (try #require(ink.min()) + (try #require(ink.max()))) / 2
        #expect(abs(middle - canvas.width / 2) <= 2)
        #expect(ink.count < canvas.width / 2)
    }

    @Test("every locale draws its own title")
    func locales() async throws {
        var images: [String: [UInt8]] = [:]
        for locale in ["en_US", "de_DE", "ar_SA", "iw_IL", "th_TH", "zh_CN", "ko_KR"] {
            let spec = ButtonSpec(width: 220, height: 40, locale: try #require(ButtonLocale(rawValue: locale)))
            images[locale] = try await Self.renderer.get().png(spec)
        }
        #expect(Set(images.values).count == images.count)
        #expect(ButtonLocale.all.count == 37)
    }

    @Test("Thai marks take no room: a word with a vowel and a tone mark is as wide as its consonants")
    func thaiMarks() async throws {
        let renderer = try Self.renderer.get()
        let thai = try #require(ButtonLocale(rawValue: "th_TH"))
        let marked = await renderer.layout("ชื่อ", locale: thai, pixelSize: 40)
        let bare = await renderer.layout("ชอ", locale: thai, pixelSize: 40)
        #expect(marked.advance == bare.advance)
        // The tone mark sits above the vowel mark, not on it.
        let marks = marked.glyphs.filter { $0.top > 30 }
        #expect(marks.count == 2)
        if marks.count == 2 { #expect(marks[1].top - marks[1].rows >= marks[0].top) }
    }

    @Test("the left-aligned button honours the label position")
    func labelPosition() async throws {
        let near = Self.inkColumns(try await Self.render(ButtonSpec(layout: .left, width: 300, height: 40)), color: .black)
        let far = Self.inkColumns(
            try await Self.render(ButtonSpec(layout: .left, width: 300, height: 40, labelPosition: 120)), color: .black)
        #expect(try #require(far.max()) > (try #require(near.max())) + 40)
    }
}
