/// The fields of a flat `application/x-www-form-urlencoded` string (WHATWG URL §5.1): pairs split on
/// `&`, name and value split on the first `=`, `+` read as a space and `%XX` as a byte. Every request
/// of the protocol is flat, so a name is taken as it is, and a name given twice is refused (RFC 6749
/// §3.1). Bracketed names are the same name for that rule (`code=1&code[]=2` is `code` twice), so a
/// parameter cannot be smuggled in as a list. Empty pairs (`a=1&&b=2`) are skipped; a pair without
/// `=` has the empty value.
public enum FormFields {
    public static func parse(_ form: String) throws(FormFieldsError) -> [String: String] {
        var fields: [String: String] = [:]
        var baseNames: Set<Substring> = []
        let bytes = form.utf8
        var pairStart = bytes.startIndex
        while pairStart < bytes.endIndex {
            let pairEnd = bytes[pairStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            if pairStart < pairEnd {
                let pair = bytes[pairStart..<pairEnd]
                let separator = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                let name = try decode(pair[pair.startIndex..<separator])
                let value = separator == pair.endIndex ? "" : try decode(pair[pair.index(after: separator)...])
                let baseName = name.prefix { $0 != "[" }
                guard baseNames.insert(baseName).inserted else { throw .repeated(String(baseName)) }
                fields[name] = value
            }
            pairStart = pairEnd == bytes.endIndex ? pairEnd : bytes.index(after: pairEnd)
        }
        return fields
    }

    /// One name or value: the text itself when there is nothing to decode, otherwise its bytes
    /// decoded, which must be UTF-8.
    private static func decode(_ component: Substring.UTF8View) throws(FormFieldsError) -> String {
        guard component.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(Substring(component))
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(component.count)
        var index = component.startIndex
        while index < component.endIndex {
            let byte = component[index]
            index = component.index(after: index)
            switch byte {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index < component.endIndex, let high = hexValue(component[index]) else { throw .badPercentEncoding }
                index = component.index(after: index)
                guard index < component.endIndex, let low = hexValue(component[index]) else { throw .badPercentEncoding }
                index = component.index(after: index)
                decoded.append(high << 4 | low)
            default:
                decoded.append(byte)
            }
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw .notUTF8 }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Why a form could not be read; the description is safe to send back (it names no value).
public enum FormFieldsError: Error, Equatable, CustomStringConvertible {
    case repeated(String)
    case badPercentEncoding
    case notUTF8
    /// A field of the request type that a flat form cannot give (a number that does not parse, a list).
    case unreadable(String)

    public var description: String {
        switch self {
        // The name is the client's own text, so it is named only when it is short and plain.
        case .repeated(let name) where name.count <= 64 && name.utf8.allSatisfy(Self.isPlainNameByte): "parameter \(name) is repeated"
        case .repeated: "a parameter is repeated"
        case .badPercentEncoding: "a parameter has a % not followed by two hex digits"
        case .notUTF8: "a parameter is not UTF-8 once percent-decoded"
        case .unreadable(let name): "parameter \(name) cannot be read"
        }
    }

    private static func isPlainNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}
