import Hummingbird

/// Strong validators for the static answers (the JS library, button images): the same bytes
/// give the same tag on every server instance, so a CDN or browser revalidates cheaply.
package enum EntityTag {
    /// A quoted 64-bit FNV-1a digest of the body (a cache validator, not a security check).
    static func of(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return "\"" + String(hash, radix: 16) + "\""
    }

    /// 200 with the body, or 304 when the browser already holds these bytes.
    package static func respond(to request: Request, body: [UInt8], contentType: String, maxAge: Int) -> Response {
        respond(to: request, body: body, contentType: contentType, cacheControl: "public, max-age=\(maxAge)")
    }

    /// The same for an answer that no cache may keep (`no-store`): a poll that asks again with the
    /// tag of what it has gets 304 until the answer changes.
    package static func respond(to request: Request, body: [UInt8], contentType: String, cacheControl: String) -> Response {
        let tag = of(body)
        var headers: HTTPFields = [.eTag: tag, .cacheControl: cacheControl, .contentType: contentType]
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag })
        {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
