import CFreeType
import Logging

/// Draws Sign in with Apple buttons as PNG images (spec §14): the rounded background, the
/// optional border, the Apple logo and the localized title. FreeType is not thread-safe, so the
/// fonts live in this actor. It runs on a queue of its own (``RenderQueueExecutor``): a render never
/// holds an event loop or a thread of Swift's pool.
public actor ButtonRenderer {
    private let fonts: FontLibrary
    private let executor = RenderQueueExecutor(label: "siwa.button-renderer")
    /// Called on the renderer's queue as a render starts (tests hold a render there).
    private let renderStarts: @Sendable () -> Void

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Opens the fonts once (`fontFiles`: where to look); missing ones are logged here, once.
    public init(logger: Logger, fontFiles: ButtonFontFiles = .installed) throws {
        try self.init(logger: logger, fontFiles: fontFiles, renderStarts: {})
    }

    /// With `renderStarts` called as each render starts, on the renderer's queue.
    init(logger: Logger, fontFiles: ButtonFontFiles = .installed, renderStarts: @escaping @Sendable () -> Void) throws {
        fonts = try FontLibrary(sources: fontFiles.sources, cjkPath: fontFiles.cjk.path, logger: logger)
        self.renderStarts = renderStarts
    }

    /// With other font files (tests: missing ones).
    init(logger: Logger, fontSources: [FontLibrary.Source], cjkPath: String) throws {
        fonts = try FontLibrary(sources: fontSources, cjkPath: cjkPath, logger: logger)
        renderStarts = {}
    }

    /// The title laid out at `pixelSize`, for tests of mark placement.
    func layout(_ text: String, locale: ButtonLocale, pixelSize: Int) -> TextLayout {
        TextLayout(text: text, locale: locale, pixelSize: pixelSize, fonts: fonts)
    }

    /// The font package `spec`'s title needs and this machine lacks: without it the title would be boxes.
    public func missingFontPackage(for spec: ButtonSpec) -> String? {
        spec.layout == .logo ? nil : fonts.missingPackage(for: spec.locale, title: spec.locale.text(spec.title))
    }

    /// The button as a PNG.
    public func png(_ spec: ButtonSpec) throws -> [UInt8] {
        renderStarts()
        return try PNGCodec.encode(canvas(spec))
    }

    /// The button's pixels.
    public func canvas(_ spec: ButtonSpec) -> Canvas {
        let width = spec.pixelWidth
        let height = spec.pixelHeight
        var canvas = Canvas(width: width, height: height)
        let (fill, ink): (Canvas.RGB, Canvas.RGB) = spec.color == .black ? (.black, .white) : (.white, .black)
        let radius = Double(spec.borderRadius) / 100 * Double(height)
        let outer = VectorPath.roundedRectangle(x: 0, y: 0, width: Double(width), height: Double(height), radius: radius)
        var inner: [UInt8]?
        if spec.border {
            let line = Double(spec.scale)
            inner = VectorPath.roundedRectangle(
                x: line, y: line, width: Double(width) - 2 * line, height: Double(height) - 2 * line, radius: max(0, radius - line)
            ).coverage(width: width, height: height, library: fonts.library)
        }
        canvas.fill(outer: outer.coverage(width: width, height: height, library: fonts.library), inner: inner, fill: fill, border: .black)

        let layout = ButtonGeometry(spec: spec)
        if spec.layout == .logo {
            drawLogo(on: &canvas, x: (Double(width) - layout.logoWidth) / 2, height: layout.logoHeight, color: ink)
            return canvas
        }
        var fontSize = layout.fontSize
        var text = TextLayout(text: spec.locale.text(spec.title), locale: spec.locale, pixelSize: fontSize, fonts: fonts)
        for _ in 0..<4 {
            let needed = layout.textStart + Double(Self.inkWidth(text)) + layout.rightMargin
            guard needed > Double(width), fontSize > 6 else { break }
            let room = Double(width) - layout.textStart - layout.rightMargin
            fontSize = max(6, Int(Double(fontSize) * room / Double(max(1, Self.inkWidth(text)))))
            text = TextLayout(text: spec.locale.text(spec.title), locale: spec.locale, pixelSize: fontSize, fonts: fonts)
        }
        let textWidth = Double(Self.inkWidth(text))
        var logoX = layout.logoX
        var textX = layout.textStart
        if spec.layout == .center {
            let group = layout.logoWidth + layout.gap + textWidth
            logoX = (Double(width) - group) / 2
            textX = logoX + layout.logoWidth + layout.gap
        }
        drawLogo(on: &canvas, x: logoX, height: layout.logoHeight, color: ink)
        let baseline = Int((Double(height) / 2 + 0.36 * Double(fontSize)).rounded())
        let penX = Int(textX.rounded()) - (text.inkExtent?.lowerBound ?? 0)
        for glyph in text.glyphs {
            canvas.paint(mask: glyph.pixels, maskWidth: glyph.width, x: penX + glyph.x, y: baseline - glyph.top, color: ink)
        }
        return canvas
    }

    private func drawLogo(on canvas: inout Canvas, x: Double, height logoHeight: Double, color: Canvas.RGB) {
        let top = (Double(canvas.height) - logoHeight) / 2
        let path = AppleLogo.path.transformed(scale: logoHeight / AppleLogo.height, dx: x, dy: top)
        let mask = path.coverage(width: canvas.width, height: canvas.height, library: fonts.library)
        canvas.paint(mask: mask, maskWidth: canvas.width, x: 0, y: 0, color: color)
    }

    private static func inkWidth(_ text: TextLayout) -> Int {
        text.inkExtent.map { $0.upperBound - $0.lowerBound } ?? 0
    }
}
