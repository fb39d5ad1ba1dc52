/// ``SMTPDotStuffing`` a piece at a time: a message read from storage in chunks goes out in chunks,
/// and a line end or a leading dot split across two pieces is written as it would be whole.
public struct SMTPDotStuffer: Sendable {
    private var atLineStart = true
    private var pendingCR = false

    public init() {}

    /// The next piece of the message, as DATA sends it.
    public mutating func encode(_ piece: some Collection<UInt8>) -> [UInt8] {
        let cr = UInt8(ascii: "\r")
        let lf = UInt8(ascii: "\n")
        var out: [UInt8] = []
        out.reserveCapacity(piece.count + piece.count / 64 + 2)
        for byte in piece {
            if pendingCR {
                pendingCR = false
                out += [cr, lf]
                atLineStart = true
                if byte == lf { continue }
            }
            if byte == cr {
                pendingCR = true
                continue
            }
            if atLineStart, byte == UInt8(ascii: ".") { out.append(UInt8(ascii: ".")) }
            if byte == lf {
                out += [cr, lf]
                atLineStart = true
                continue
            }
            out.append(byte)
            atLineStart = false
        }
        return out
    }

    /// The end of the message: its last line ended, then `.` CRLF.
    public mutating func finish() -> [UInt8] {
        var out: [UInt8] = []
        if pendingCR || !atLineStart { out += Array("\r\n".utf8) }
        pendingCR = false
        atLineStart = true
        return out + Array(".\r\n".utf8)
    }
}
