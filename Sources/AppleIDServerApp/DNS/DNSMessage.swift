import AppleIDProvider

/// The two DNS messages the e-mail sources' SPF check needs (RFC 1035 §4.1): a query for the TXT
/// records of a name, and the reading of its response. Nothing else of DNS is spoken here.
enum DNSMessage {
    static let typeTXT: UInt16 = 16
    static let classIN: UInt16 = 1

    /// A standard query (opcode 0) with recursion desired (RD), one question: `name` IN TXT.
    static func txtQuery(id: UInt16, name: String) throws(TXTLookupError) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xff), 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
        bytes += try encode(name: name)
        bytes += [UInt8(typeTXT >> 8), UInt8(typeTXT & 0xff), UInt8(classIN >> 8), UInt8(classIN & 0xff)]
        return bytes
    }

    /// A name as length-prefixed labels (RFC 1035 §3.1): labels of 1 to 63 bytes, 255 bytes in all.
    static func encode(name: String) throws(TXTLookupError) -> [UInt8] {
        var bytes: [UInt8] = []
        let trimmed = name.hasSuffix(".") ? String(name.dropLast()) : name
        for label in trimmed.split(separator: ".", omittingEmptySubsequences: false) {
            let utf8 = Array(label.utf8)
            guard (1...63).contains(utf8.count) else { throw TXTLookupError("\(name) is not a domain name") }
            bytes.append(UInt8(utf8.count))
            bytes += utf8
        }
        bytes.append(0)
        guard bytes.count <= 255 else { throw TXTLookupError("\(name) is longer than a domain name may be") }
        return bytes
    }

    /// Reads the response to the query `id` for `name`: `nil` when the datagram is not that response
    /// (another id, not a response, another question), which a resolver ignores as stray traffic.
    static func txtAnswer(_ bytes: [UInt8], id: UInt16, name: String) throws(TXTLookupError) -> TXTAnswer? {
        var reader = DNSReader(bytes: bytes)
        guard let header = try? reader.header(), header.id == id, header.isResponse, header.questions == 1,
            let question = try? reader.name(), question.lowercased() == normalized(name), (try? reader.skip(4)) != nil
        else { return nil }
        guard !header.isTruncated else { throw TXTLookupError("the TXT records of \(name) do not fit a UDP answer") }
        switch header.responseCode {
        case 0: break
        case 3: return .noSuchName
        case 2: throw TXTLookupError("the DNS server failed to answer for \(name) (SERVFAIL)")
        case 5: throw TXTLookupError("the DNS server refused to answer for \(name) (REFUSED)")
        case let code: throw TXTLookupError("the DNS server answered \(name) with RCODE \(code)")
        }
        var records: [String] = []
        for _ in 0..<header.answers {
            try reader.skipName()
            let type = try reader.uint16()
            let dnsClass = try reader.uint16()
            try reader.skip(4)
            let data = try reader.take(Int(try reader.uint16()))
            // Answers also carry the CNAMEs the resolver followed; only TXT data counts.
            guard type == typeTXT, dnsClass == classIN else { continue }
            records.append(try characterStrings(data))
        }
        return .records(records)
    }

    /// TXT RDATA is one or more <character-string>s (RFC 1035 §3.3.14); an SPF record split over
    /// several is read as their concatenation, without spaces (RFC 7208 §3.3).
    static func characterStrings(_ data: [UInt8]) throws(TXTLookupError) -> String {
        var text: [UInt8] = []
        var index = 0
        while index < data.count {
            let length = Int(data[index])
            guard index + 1 + length <= data.count else { throw TXTLookupError("a TXT record is malformed") }
            text += data[(index + 1)..<(index + 1 + length)]
            index += 1 + length
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func normalized(_ name: String) -> String {
        (name.hasSuffix(".") ? String(name.dropLast()) : name).lowercased()
    }
}
