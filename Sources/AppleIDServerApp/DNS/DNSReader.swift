import AppleIDProvider

/// Reads a DNS message front to back with bounds checks: a short or looping message is an error,
/// never a crash.
struct DNSReader {
    struct Header {
        let id: UInt16
        let flags: UInt16
        let questions: UInt16
        let answers: UInt16

        var isResponse: Bool { flags & 0x8000 != 0 }
        var isTruncated: Bool { flags & 0x0200 != 0 }
        var responseCode: UInt16 { flags & 0x000f }
    }

    let bytes: [UInt8]
    var position = 0

    static let malformed = TXTLookupError("the DNS answer is malformed")

    mutating func header() throws(TXTLookupError) -> Header {
        let header = Header(id: try uint16(), flags: try uint16(), questions: try uint16(), answers: try uint16())
        try skip(4)  // NSCOUNT, ARCOUNT: the authority and additional sections are not read.
        return header
    }

    mutating func uint16() throws(TXTLookupError) -> UInt16 {
        let pair = try take(2)
        return UInt16(pair[0]) << 8 | UInt16(pair[1])
    }

    mutating func take(_ count: Int) throws(TXTLookupError) -> [UInt8] {
        guard count >= 0, position + count <= bytes.count else { throw Self.malformed }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func skip(_ count: Int) throws(TXTLookupError) { _ = try take(count) }

    /// Reads a name, following compression pointers (RFC 1035 §4.1.4) a bounded number of times.
    mutating func name() throws(TXTLookupError) -> String {
        var labels: [String] = []
        var cursor = position
        var jumps = 0
        var end: Int?
        while true {
            guard cursor < bytes.count else { throw Self.malformed }
            let length = Int(bytes[cursor])
            if length & 0xc0 == 0xc0 {
                guard cursor + 1 < bytes.count, jumps < 16 else { throw Self.malformed }
                if end == nil { end = cursor + 2 }
                cursor = (length & 0x3f) << 8 | Int(bytes[cursor + 1])
                jumps += 1
            } else if length == 0 {
                position = end ?? cursor + 1
                return labels.joined(separator: ".")
            } else {
                guard length <= 63, cursor + 1 + length <= bytes.count else { throw Self.malformed }
                labels.append(String(decoding: bytes[(cursor + 1)..<(cursor + 1 + length)], as: UTF8.self))
                cursor += 1 + length
            }
        }
    }

    mutating func skipName() throws(TXTLookupError) { _ = try name() }
}
