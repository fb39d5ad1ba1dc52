import CFreeType

/// A filled shape made of straight lines and cubic Bézier curves, in SVG's coordinates (y grows
/// downwards). The Apple logo and the button's rounded rectangle are both drawn from one.
public struct VectorPath: Sendable, Hashable {
    enum Command: Sendable, Hashable {
        case move(Point)
        case line(Point)
        case cubic(Point, Point, Point)
    }

    struct Point: Sendable, Hashable {
        var x: Double
        var y: Double
    }

    var commands: [Command] = []

    /// Reads absolute `M`, `L`, `C` and `Z` commands, numbers separated by spaces or commas.
    public init(svg: String) {
        let tokens = svg.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" })
        var index = 0
        var command: Character = "M"
        func number() -> Double {
            defer { index += 1 }
            return index < tokens.count ? Double(tokens[index]) ?? 0 : 0
        }
        func point() -> Point { Point(x: number(), y: number()) }
        while index < tokens.count {
            if let letter = tokens[index].first, letter.isLetter {
                command = letter
                index += 1
                if command == "Z" { continue }
            }
            switch command {
            case "M": commands.append(.move(point()))
            case "L": commands.append(.line(point()))
            case "C": commands.append(.cubic(point(), point(), point()))
            default: index += 1
            }
        }
    }

    init(commands: [Command]) { self.commands = commands }

    /// The path moved by (`dx`, `dy`) after scaling by `factor`.
    func transformed(scale factor: Double, dx: Double, dy: Double) -> VectorPath {
        func map(_ point: Point) -> Point { Point(x: point.x * factor + dx, y: point.y * factor + dy) }
        return VectorPath(
            commands: commands.map { command in
                switch command {
                case .move(let point): return .move(map(point))
                case .line(let point): return .line(map(point))
                case .cubic(let a, let b, let c): return .cubic(map(a), map(b), map(c))
                }
            })
    }

    /// A rectangle with quarter-circle corners of `radius` (cubic approximation).
    static func roundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double) -> VectorPath {
        let r = max(0, min(radius, width / 2, height / 2))
        let k = r * 0.552_284_75
        let (left, top, right, bottom) = (x, y, x + width, y + height)
        return VectorPath(commands: [
            .move(Point(x: left + r, y: top)), .line(Point(x: right - r, y: top)),
            .cubic(Point(x: right - r + k, y: top), Point(x: right, y: top + r - k), Point(x: right, y: top + r)),
            .line(Point(x: right, y: bottom - r)),
            .cubic(Point(x: right, y: bottom - r + k), Point(x: right - r + k, y: bottom), Point(x: right - r, y: bottom)),
            .line(Point(x: left + r, y: bottom)),
            .cubic(Point(x: left + r - k, y: bottom), Point(x: left, y: bottom - r + k), Point(x: left, y: bottom - r)),
            .line(Point(x: left, y: top + r)),
            .cubic(Point(x: left, y: top + r - k), Point(x: left + r - k, y: top), Point(x: left + r, y: top)),
        ])
    }

    /// The shape's anti-aliased coverage (0–255 per pixel, rows top to bottom), rasterized by
    /// FreeType's smooth rasterizer.
    func coverage(width: Int, height: Int, library: FT_Library) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height)
        guard width > 0, height > 0 else { return pixels }
        var points: [FT_Vector] = []
        var tags: [CChar] = []
        var contourEnds: [Int16] = []
        // FreeType's y axis points up from the bitmap's bottom row; 26.6 fixed point.
        func add(_ point: Point, tag: Int32) {
            points.append(FT_Vector(x: FT_Pos((point.x * 64).rounded()), y: FT_Pos(((Double(height) - point.y) * 64).rounded())))
            tags.append(CChar(tag))
        }
        for command in commands {
            switch command {
            case .move(let point):
                if !points.isEmpty { contourEnds.append(Int16(points.count - 1)) }
                add(point, tag: 1)
            case .line(let point): add(point, tag: 1)
            case .cubic(let a, let b, let c):
                add(a, tag: 2)
                add(b, tag: 2)
                add(c, tag: 1)
            }
        }
        guard !points.isEmpty, points.count < Int(Int16.max) else { return pixels }
        contourEnds.append(Int16(points.count - 1))
        pixels.withUnsafeMutableBufferPointer { buffer in
            points.withUnsafeMutableBufferPointer { points in
                tags.withUnsafeMutableBufferPointer { tags in
                    contourEnds.withUnsafeMutableBufferPointer { ends in
                        var outline = FT_Outline(
                            n_contours: Int16(ends.count), n_points: Int16(points.count), points: points.baseAddress,
                            tags: tags.baseAddress, contours: ends.baseAddress, flags: 0)
                        var bitmap = FT_Bitmap()
                        bitmap.rows = UInt32(height)
                        bitmap.width = UInt32(width)
                        bitmap.pitch = Int32(width)
                        bitmap.buffer = buffer.baseAddress
                        bitmap.num_grays = 256
                        bitmap.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
                        _ = FT_Outline_Get_Bitmap(library, &outline, &bitmap)
                    }
                }
            }
        }
        return pixels
    }
}
