import CFreeType

/// A title laid out on one line: each glyph's coverage bitmap and where it goes, relative to the
/// pen's start on the baseline (x to the right, y upwards).
struct TextLayout {
    struct PlacedGlyph {
        var x: Int
        /// The bitmap's top row, above the baseline.
        var top: Int
        var width: Int
        var rows: Int
        var pixels: [UInt8]
    }

    var glyphs: [PlacedGlyph] = []
    /// The pen's travel: the line's width.
    var advance = 0

    /// Shapes (Arabic joining), orders (right to left) and rasterizes `text` at `pixelSize`.
    /// Combining marks take no room: Thai vowels and tone marks sit over or under their base
    /// letter, and a second mark above is raised over the first.
    init(text: String, locale: ButtonLocale, pixelSize: Int, fonts: FontLibrary) {
        let scalars = VisualOrder.reorder(ArabicShaping.shape(text), rightToLeft: locale.isRightToLeft)
        var pen = 0
        var base: (x: Int, advance: Int, top: Int)?
        var stackTop: Int?
        for scalar in scalars {
            guard let (face, index) = fonts.glyph(for: scalar, locale: locale) else { continue }
            FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
            guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_RENDER)) == 0, let slot = face.pointee.glyph else { continue }
            let bitmap = slot.pointee.bitmap
            var glyph = PlacedGlyph(
                x: pen + Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), width: Int(bitmap.width),
                rows: Int(bitmap.rows), pixels: Self.copy(bitmap))
            let glyphAdvance = Int((slot.pointee.advance.x + 32) >> 6)
            if VisualOrder.isMark(scalar), let base {
                if glyphAdvance > 0 {
                    // A font that gives the mark a width: centre it over the base instead.
                    glyph.x = base.x + (base.advance - glyph.width) / 2
                }
                if Self.isAboveMark(scalar) {
                    let bottom = glyph.top - glyph.rows
                    if let stackTop, bottom < stackTop + pixelSize / 20 { glyph.top += stackTop + pixelSize / 20 - bottom }
                    stackTop = glyph.top
                }
            } else {
                base = (pen, glyphAdvance, glyph.top)
                stackTop = nil
                pen += glyphAdvance
            }
            if glyph.width > 0, glyph.rows > 0 { glyphs.append(glyph) }
        }
        advance = pen
    }

    /// Thai vowels and tone marks written above the consonant.
    static func isAboveMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E31, 0x0E34...0x0E37, 0x0E47...0x0E4E: return true
        default: return false
        }
    }

    /// The leftmost and rightmost inked columns, relative to the pen's start.
    var inkExtent: ClosedRange<Int>? {
        guard let minX = glyphs.map(\.x).min(), let maxX = glyphs.map({ $0.x + $0.width }).max() else { return nil }
        return minX...maxX
    }

    private static func copy(_ bitmap: FT_Bitmap) -> [UInt8] {
        let width = Int(bitmap.width)
        let rows = Int(bitmap.rows)
        guard width > 0, rows > 0, let buffer = bitmap.buffer else { return [] }
        var pixels = [UInt8](repeating: 0, count: width * rows)
        let pitch = Int(bitmap.pitch)
        for row in 0..<rows {
            let source = pitch >= 0 ? row * pitch : (rows - 1 - row) * -pitch
            for column in 0..<width { pixels[row * width + column] = buffer[source + column] }
        }
        return pixels
    }
}
