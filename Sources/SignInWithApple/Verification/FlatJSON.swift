/// A strict single-pass reader for a flat JSON object (RFC 8259): the top-level members of an
/// identity token's claims as strings, integers, booleans or null; nested values are checked and
/// skipped. Duplicate keys are refused (a claim must have one meaning).
///
/// `JSONDecoder` spends a third of a verification building containers for a dozen claims; this
/// reads them in one pass. `FlatJSONTests` hold it to `JSONDecoder`'s verdicts.
struct FlatJSON {
    enum Value: Equatable {
        case string(String)
        case integer(Int)
        /// A number with a fraction or exponent.
        case otherNumber
        case boolean(Bool)
        case null
        /// An object or array (checked, not kept).
        case nested
    }

    struct Malformed: Error {}

    /// The members in order. A dozen claims are found faster by a linear search than by hashing.
    static func parse(_ bytes: [UInt8]) throws -> [(key: String, value: Value)] {
        var reader = FlatJSON(bytes: bytes)
        return try reader.object()
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func object() throws -> [(key: String, value: Value)] {
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        var members: [(key: String, value: Value)] = []
        members.reserveCapacity(16)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                let key = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                let value = try self.value(depth: 1)
                guard !members.contains(where: { $0.key == key }) else { throw Malformed() }
                members.append((key, value))
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"))
                break
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw Malformed() }
        return members
    }

    private mutating func value(depth: Int) throws -> Value {
        skipWhitespace()
        guard let byte = peek(), depth < 64 else { throw Malformed() }
        switch byte {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .boolean(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .boolean(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipNested(depth: depth)
            return .nested
        default: return try number()
        }
    }

    private mutating func skipNested(depth: Int) throws {
        let open = bytes[index]
        let close = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        skipWhitespace()
        if peek() == close {
            index += 1
            return
        }
        while true {
            if open == UInt8(ascii: "{") {
                skipWhitespace()
                _ = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
            }
            _ = try value(depth: depth + 1)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(close)
            return
        }
    }

    private mutating func number() throws -> Value {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw Malformed() }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        var integral = true
        if peek() == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard let byte = peek(), isDigit(byte) else { throw Malformed() }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            integral = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek(), isDigit(byte) else { throw Malformed() }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        guard integral else { return .otherNumber }
        guard let value = Int(String(decoding: bytes[start..<index], as: UTF8.self)) else { throw Malformed() }
        return .integer(value)
    }

    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        // Fast path: no escape before the closing quote, so the string is a slice of the input.
        let start = index
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { index += 1 }
        if peek() == UInt8(ascii: "\"") {
            index += 1
            guard let text = String(validating: bytes[start..<(index - 1)], as: UTF8.self) else { throw Malformed() }
            return text
        }
        var output = Array(bytes[start..<index])
        while true {
            guard let byte = peek() else { throw Malformed() }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: output, as: UTF8.self) else { throw Malformed() }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &output)
            case 0x00..<0x20:
                throw Malformed()
            default:
                output.append(byte)
            }
        }
    }

    private mutating func escape(into output: inout [UInt8]) throws {
        guard let byte = peek() else { throw Malformed() }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { throw Malformed() }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw Malformed() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw Malformed()
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw Malformed() }
            output.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw Malformed()
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw Malformed() }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw Malformed()
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private mutating func literal(_ word: String) throws {
        for byte in word.utf8 { try expect(byte) }
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard peek() == byte else { throw Malformed() }
        index += 1
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }
}
