import Foundation

/// Pretty-prints JSON text as it is written: members keep their order and values their spelling
/// (a round trip through a dictionary would reorder `kid, alg` and the claims).
enum OrderPreservingJSON {
    /// Two-space indentation, `"key": value`; the text unchanged when it is not valid JSON.
    static func prettyPrinted(_ bytes: [UInt8]) -> String {
        guard (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var output: [UInt8] = []
        var depth = 0
        var inString = false
        var escaped = false
        var index = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: [UInt8](repeating: UInt8(ascii: " "), count: depth * 2))
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if let next = bytes[index...].first(where: { !isWhitespace($0) }), next == closing {
                    continue
                }
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let last = output.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") {
                    depth -= 1
                    newline()
                }
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output.append(contentsOf: [byte, UInt8(ascii: " ")])
            default:
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
