/// DATA (RFC 5321 §4.1.1.4, §4.5.2): the message is lines ended by CRLF, up to a line holding only
/// `.`; a line the client started with a dot has it doubled, and the server removes one. Only
/// CRLF `.` CRLF ends the message: a bare LF before or after the dot does not, so that no second
/// message can be smuggled inside the first (the 2023 "SMTP smuggling" attacks). A bare CR or a
/// bare LF anywhere in the message refuses it at its end (RFC 5321 §2.3.8; Postfix's
/// `smtpd_forbid_bare_newline`), so that no receiver further on reads a line end this one did not.
struct DataScanner: Sendable, Equatable {
    /// Whether the next byte starts a line (the message starts at one).
    var atLineStart = true
    var previousWasCR = false
    var size = 0
    var oversized = false
    /// A CR not followed by LF, or a LF not preceded by CR, was received.
    var bareLineEnd = false
}

extension SMTPSession {
    /// Moves what input there is into the message; `true` when the end of the message was reached
    /// (and handled), `false` when more input is needed.
    mutating func scanData(into events: inout [Event]) -> Bool {
        var chunk: [UInt8] = []
        while inputStart < input.count {
            if data.atLineStart, input[inputStart] == UInt8(ascii: ".") {
                let available = input.count - inputStart
                if available < 3 {
                    // `.`, `.\r`: not yet known whether this is the end.
                    if available == 1 || input[inputStart + 1] == UInt8(ascii: "\r") { break }
                }
                if available >= 3, input[inputStart + 1] == UInt8(ascii: "\r"), input[inputStart + 2] == UInt8(ascii: "\n") {
                    inputStart += 3
                    emit(chunk, into: &events)
                    events += finishMessage()
                    return true
                }
                inputStart += 1  // the stuffed dot
            }
            let end = input[inputStart...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? input.count
            let line = input[inputStart..<end]
            inputStart = end
            // A CR left at the end of the last read must be followed by this line's LF.
            if data.previousWasCR, line.first != UInt8(ascii: "\n") { data.bareLineEnd = true }
            if line.last == UInt8(ascii: "\n") {
                let crBefore =
                    line.count >= 2 ? line[line.index(before: line.index(before: line.endIndex))] == UInt8(ascii: "\r") : data.previousWasCR
                if !crBefore { data.bareLineEnd = true }
                if line.dropLast(crBefore && line.count >= 2 ? 2 : 1).contains(UInt8(ascii: "\r")) { data.bareLineEnd = true }
                data.atLineStart = crBefore
                data.previousWasCR = false
            } else {
                if line.dropLast().contains(UInt8(ascii: "\r")) { data.bareLineEnd = true }
                data.atLineStart = false
                data.previousWasCR = line.last == UInt8(ascii: "\r")
            }
            append(line, to: &chunk)
        }
        emit(chunk, into: &events)
        return false
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>, to chunk: inout [UInt8]) {
        data.size += bytes.count
        if data.size > limits.maximumMessageBytes { data.oversized = true }
        // Past the limit, or once refused, nothing is kept: a message of any size costs one chunk
        // of memory at most.
        if !data.oversized, !data.bareLineEnd { chunk.append(contentsOf: bytes) }
    }

    private func emit(_ chunk: [UInt8], into events: inout [Event]) {
        if !chunk.isEmpty { events.append(.messageBytes(chunk)) }
    }
}
