import AppleIDProvider
import Foundation
import SMTPWire

/// The readable parts of an Internet message (RFC 2045, RFC 2046): its first HTML and its first
/// plain-text part, with their transfer encoding undone. Lenient, as a mail reader must be: an
/// unknown encoding is shown as it is, and parts nested deeper than ``maximumDepth`` are skipped.
public struct MessageBody: Sendable, Hashable {
    public var html: String?
    public var text: String?

    /// Multipart nesting deeper than this is not read (a hostile message could nest without end).
    static let maximumDepth = 5

    public init(html: String? = nil, text: String? = nil) {
        self.html = html
        self.text = text
    }

    public static func read(_ source: some Collection<UInt8>) -> MessageBody {
        var body = MessageBody()
        body.collect(Array(source), depth: 0)
        return body
    }

    private mutating func collect(_ entity: [UInt8], depth: Int) {
        let headers = MessageHeaders.parse(entity)
        let content = Array(entity[headers.bodyStart...])
        let type = ContentType(headers.value("Content-Type") ?? "text/plain")
        if type.mediaType.hasPrefix("multipart/") {
            guard depth < Self.maximumDepth, let boundary = type.parameters["boundary"], !boundary.isEmpty else { return }
            for part in Self.parts(of: content, boundary: boundary) { collect(part, depth: depth + 1) }
            return
        }
        guard type.mediaType == "text/html" || type.mediaType == "text/plain" else { return }
        let bytes = Self.decode(content, transferEncoding: headers.value("Content-Transfer-Encoding") ?? "7bit")
        let decoded = Self.string(bytes, charset: type.parameters["charset"])
        if type.mediaType == "text/html" {
            html = html ?? decoded
        } else {
            text = text ?? decoded
        }
    }

    /// The body parts between `--boundary` lines, up to `--boundary--` (RFC 2046 §5.1.1).
    static func parts(of content: [UInt8], boundary: String) -> [[UInt8]] {
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [[UInt8]] = []
        var current: [UInt8]?
        var lineStart = 0
        while lineStart < content.count {
            let newline = content[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? content.count
            let lineEnd = min(newline + 1, content.count)
            var line = content[lineStart..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.starts(with: delimiter) {
                let rest = line.dropFirst(delimiter.count)
                if let part = current { parts.append(Self.droppingLastLineEnd(part)) }
                if rest.starts(with: Array("--".utf8)) { return parts }
                current = []
            } else {
                current?.append(contentsOf: content[lineStart..<lineEnd])
            }
            lineStart = lineEnd
        }
        if let part = current { parts.append(part) }
        return parts
    }

    /// The line end before a delimiter belongs to the delimiter (RFC 2046 §5.1.1).
    private static func droppingLastLineEnd(_ part: [UInt8]) -> [UInt8] {
        var part = part
        if part.last == UInt8(ascii: "\n") { part.removeLast() }
        if part.last == UInt8(ascii: "\r") { part.removeLast() }
        return part
    }

    static func decode(_ content: [UInt8], transferEncoding: String) -> [UInt8] {
        switch transferEncoding.lowercased().trimmingCharacters(in: .whitespaces) {
        case "base64":
            let compact = String(decoding: content.filter { !$0.isASCIIWhitespace }, as: UTF8.self)
            return Data(base64Encoded: compact, options: .ignoreUnknownCharacters).map(Array.init) ?? content
        case "quoted-printable": return QuotedPrintable.decode(content)
        default: return content
        }
    }

    private static func string(_ bytes: [UInt8], charset: String?) -> String {
        switch charset?.lowercased() {
        case "iso-8859-1", "latin1", "windows-1252", "us-ascii":
            String(data: Data(bytes), encoding: charset?.lowercased() == "windows-1252" ? .windowsCP1252 : .isoLatin1)
                ?? String(decoding: bytes, as: UTF8.self)
        default: String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// A `Content-Type` value: `text/html; charset="utf-8"` → `text/html`, `["charset": "utf-8"]`.
struct ContentType {
    var mediaType: String
    var parameters: [String: String] = [:]

    init(_ value: String) {
        let pieces = value.split(separator: ";", omittingEmptySubsequences: false)
        mediaType = pieces.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let raw = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            parameters[name] = raw.count >= 2 && raw.hasPrefix("\"") && raw.hasSuffix("\"") ? String(raw.dropFirst().dropLast()) : raw
        }
    }
}

/// Quoted-printable (RFC 2045 §6.7): `=XX` is a byte, `=` at a line's end joins it to the next.
enum QuotedPrintable {
    static func decode(_ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(content.count)
        var index = 0
        while index < content.count {
            let byte = content[index]
            guard byte == UInt8(ascii: "=") else {
                out.append(byte)
                index += 1
                continue
            }
            if index + 1 < content.count, content[index + 1] == UInt8(ascii: "\n") {
                index += 2
            } else if index + 2 < content.count, content[index + 1] == UInt8(ascii: "\r"), content[index + 2] == UInt8(ascii: "\n") {
                index += 3
            } else if index + 2 < content.count, let high = hex(content[index + 1]), let low = hex(content[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0D || self == 0x0A }
}
