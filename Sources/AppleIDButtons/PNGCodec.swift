import CLibPNG

/// PNG encoding and decoding of a `Canvas` with libpng's simplified API (`png_image_*`).
public enum PNGCodec {
    /// `PNG_FORMAT_RGBA` (a macro Swift does not import): colour with alpha.
    private static let rgba = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    /// The canvas as an RGBA PNG.
    public static func encode(_ canvas: Canvas) throws -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(canvas.width)
        image.height = UInt32(canvas.height)
        image.format = rgba
        var size = 0
        let rowStride = Int32(canvas.width * 4)
        let sized = canvas.pixels.withUnsafeBytes { pixels in
            png_image_write_to_memory(&image, nil, &size, 0, pixels.baseAddress, rowStride, nil)
        }
        guard sized != 0, size > 0 else { throw ButtonRenderingError.pngEncodingFailed }
        var output = [UInt8](repeating: 0, count: size)
        let written = canvas.pixels.withUnsafeBytes { pixels in
            output.withUnsafeMutableBytes { memory in
                png_image_write_to_memory(&image, memory.baseAddress, &size, 0, pixels.baseAddress, rowStride, nil)
            }
        }
        guard written != 0 else { throw ButtonRenderingError.pngEncodingFailed }
        return Array(output.prefix(size))
    }

    /// Reads a PNG into an RGBA canvas; `nil` when the bytes are not a PNG libpng can read.
    public static func decode(_ bytes: [UInt8]) -> Canvas? {
        // libpng reads from the memory until `finish_read`: both calls stay inside one borrow.
        bytes.withUnsafeBytes { memory -> Canvas? in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, memory.baseAddress, memory.count) != 0 else { return nil }
            image.format = rgba
            let width = Int(image.width)
            let height = Int(image.height)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 4), nil) }
            png_image_free(&image)
            return finished != 0 ? Canvas(width: width, height: height, pixels: pixels) : nil
        }
    }
}
