/// An RGBA image (8 bits a channel, straight alpha, rows top to bottom) that coverage masks are
/// painted onto.
public struct Canvas: Sendable {
    public struct RGB: Sendable, Hashable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8
        public static let black = RGB(red: 0, green: 0, blue: 0)
        public static let white = RGB(red: 255, green: 255, blue: 255)
    }

    public let width: Int
    public let height: Int
    public internal(set) var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]? = nil) {
        self.width = width
        self.height = height
        self.pixels = pixels ?? [UInt8](repeating: 0, count: width * height * 4)
    }

    /// The pixel at (`x`, `y`): red, green, blue, alpha.
    public subscript(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let offset = (y * width + x) * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// Fills the shape `outer` with `fill`; where `inner` is given, the ring between the two is
    /// `border` (anti-aliased on both edges).
    mutating func fill(outer: [UInt8], inner: [UInt8]?, fill: RGB, border: RGB) {
        for index in 0..<(width * height) {
            let coverage = outer[index]
            let share = inner.map { Int($0[index]) } ?? 255
            let offset = index * 4
            pixels[offset] = Self.mix(border.red, fill.red, share)
            pixels[offset + 1] = Self.mix(border.green, fill.green, share)
            pixels[offset + 2] = Self.mix(border.blue, fill.blue, share)
            pixels[offset + 3] = coverage
        }
    }

    /// Paints `color` through a coverage mask of `maskWidth` columns whose top-left corner is at
    /// (`x`, `y`); what falls outside the canvas is clipped.
    mutating func paint(mask: [UInt8], maskWidth: Int, x: Int, y: Int, color: RGB) {
        guard maskWidth > 0 else { return }
        let rows = mask.count / maskWidth
        for row in 0..<rows {
            let targetY = y + row
            guard targetY >= 0, targetY < height else { continue }
            for column in 0..<maskWidth {
                let targetX = x + column
                let coverage = Int(mask[row * maskWidth + column])
                guard targetX >= 0, targetX < width, coverage > 0 else { continue }
                let offset = (targetY * width + targetX) * 4
                pixels[offset] = Self.mix(pixels[offset], color.red, coverage)
                pixels[offset + 1] = Self.mix(pixels[offset + 1], color.green, coverage)
                pixels[offset + 2] = Self.mix(pixels[offset + 2], color.blue, coverage)
                pixels[offset + 3] = max(pixels[offset + 3], UInt8(coverage))
            }
        }
    }

    /// `from` blended towards `to` by `share` out of 255.
    private static func mix(_ from: UInt8, _ to: UInt8, _ share: Int) -> UInt8 {
        UInt8((Int(from) * (255 - share) + Int(to) * share + 127) / 255)
    }
}
