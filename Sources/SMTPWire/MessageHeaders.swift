/// The header section of an Internet message (RFC 5322 §2.2): fields up to the first empty line,
/// unfolded. Lenient as receivers must be: a line that is neither a field nor a continuation ends
/// the section, bare LF counts as a line end, bytes that are not UTF-8 are replaced.
public struct MessageHeaders: Sendable, Hashable {
    public struct Field: Sendable, Hashable {
        public var name: String
        /// Unfolded, leading and trailing white space removed.
        public var value: String
        /// The field's bytes as received, folding and line ends included.
        public var raw: ArraySlice<UInt8>
    }

    public var fields: [Field]
    /// Where the body starts in the parsed bytes (after the empty line), or their end.
    public var bodyStart: Int

    /// The first field called `name` (case-insensitive).
    public func value(_ name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// At most this many fields are read; the rest of a header section this long is treated as
    /// body by ``parse(_:)`` and refused by ``parseSection(_:)``.
    public static let maximumFields = 1_000

    /// Why a header section cannot be taken as it is.
    public enum SectionError: Error, Sendable, Hashable {
        /// More than ``maximumFields`` fields.
        case tooManyFields
        /// A line that is neither a field nor a continuation before the blank line (1-based), or a
        /// continuation with no field before it.
        case malformedLine(Int)
    }

    /// Lenient, as a reader of stored mail must be: stops at the first line that is not a field.
    public static func parse(_ message: some Collection<UInt8>) -> MessageHeaders {
        switch scan(Array(message), strict: false) {
        case .success(let headers): headers
        case .failure: MessageHeaders(fields: [], bodyStart: 0)  // not reached: the lenient scan does not fail
        }
    }

    /// Strict, as a relay that rebuilds the header section must be: the section is read to its
    /// blank line (or the end of `message`), every line a field or a continuation, at most
    /// ``maximumFields`` fields; anything else is an error, never body.
    public static func parseSection(_ message: some Collection<UInt8>) -> Result<MessageHeaders, SectionError> {
        scan(Array(message), strict: true)
    }

    private static func scan(_ bytes: [UInt8], strict: Bool) -> Result<MessageHeaders, SectionError> {
        var fields: [Field] = []
        var index = 0
        var lineNumber = 0
        while index < bytes.count {
            lineNumber += 1
            let lineEnd = nextLineEnd(bytes, from: index)
            let line = bytes[index..<lineEnd.contentEnd]
            if line.isEmpty {
                index = lineEnd.next
                break
            }
            if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") {
                // A continuation: folded into the field before, or stray at the start.
                if var last = fields.popLast() {
                    last.value = (last.value + " " + text(line).trimmingSpaces).trimmingSpaces
                    last.raw = bytes[last.raw.startIndex..<lineEnd.next]
                    fields.append(last)
                } else if strict {
                    return .failure(.malformedLine(lineNumber))
                }
                index = lineEnd.next
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[line.startIndex..<colon].allSatisfy({ $0 > 32 && $0 < 127 })
            else {
                if strict { return .failure(.malformedLine(lineNumber)) }
                break
            }
            guard fields.count < maximumFields else {
                if strict { return .failure(.tooManyFields) }
                break
            }
            fields.append(
                Field(
                    name: text(line[line.startIndex..<colon]), value: text(line[(colon + 1)...]).trimmingSpaces,
                    raw: bytes[index..<lineEnd.next]))
            index = lineEnd.next
        }
        return .success(MessageHeaders(fields: fields, bodyStart: min(index, bytes.count)))
    }

    private static func nextLineEnd(_ bytes: [UInt8], from start: Int) -> (contentEnd: Int, next: Int) {
        guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return (bytes.count, bytes.count) }
        let contentEnd = newline > start && bytes[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
        return (contentEnd, newline + 1)
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
