import FuzzSupport
import SMTPWire

/// The SMTP command parser and session (fed the input split at an input-chosen point, as two reads
/// would bring it), the header parser, and the client's reply reader. Invariants: a session never
/// keeps more of a message than the size limit, unstuffs what dot-stuffing wrote, and answers every
/// line or closes; headers' raw slices lie inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMTP(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    var limits = SMTPLimits()
    limits.maximumMessageBytes = 512
    limits.maximumCommandLength = 128
    var session = SMTPSession(hostname: "fuzz.test", limits: limits, now: .zero)
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var kept = 0
    for part in [bytes[..<split], bytes[split...]] {
        var events = session.receive(part, now: .seconds(1))
        while let event = events.first {
            events.removeFirst()
            switch event {
            case .messageBytes(let chunk): kept += chunk.count
            case .messageAborted: kept = 0
            case .checkRecipient(let path, _):
                events += session.resolve(path.address.count % 2 == 0 ? .ok : SMTPReply(550, "no"), now: .seconds(2))
            case .messageComplete(let envelope):
                guard envelope.size == kept, kept <= limits.maximumMessageBytes else {
                    FuzzInput.fail("kept \(kept) bytes for a message of \(envelope.size)")
                }
                kept = 0
                events += session.resolve(.ok, now: .seconds(2))
            case .reply, .close: break
            }
        }
    }
    _ = session.inputEnded()

    let headers = MessageHeaders.parse(bytes)
    for field in headers.fields where field.raw.startIndex < 0 || field.raw.endIndex > bytes.count {
        FuzzInput.fail("a header field lies outside the input")
    }
    _ = SMTPCommand.parse(Substring(decoding: bytes, as: UTF8.self))
    var reader = SMTPReplyReader()
    _ = try? reader.read(bytes)

    // What the relay sends to a smarthost comes back, unstuffed, as it was (lines ended by CRLF).
    var receiver = SMTPSession(hostname: "fuzz.test", now: .zero)
    _ = receiver.receive(Array("EHLO f\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<r@relay.test>\r\n".utf8), now: .zero)
    _ = receiver.resolve(.ok, now: .zero)
    _ = receiver.receive(Array("DATA\r\n".utf8), now: .zero)
    var echoed: [UInt8] = []
    var completed = false
    for event in receiver.receive(SMTPDotStuffing.encode(bytes), now: .zero) {
        if case .messageBytes(let chunk) = event { echoed += chunk }
        if case .messageComplete = event { completed = true }
    }
    // encode ends a line at CRLF, a bare CR and a bare LF alike (RFC 5321 §2.3.8: it never sends a lone one).
    let sent = lineEnds(bytes)
    guard completed, lineEnds(echoed) == sent + (sent.last == 10 || bytes.isEmpty ? [] : [10]) else {
        FuzzInput.fail("dot-stuffing did not round-trip")
    }
    return 0
}

/// The bytes with every line end (CRLF, a bare CR, a bare LF) written as one LF.
func lineEnds(_ bytes: [UInt8]) -> [UInt8] {
    var lines: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if bytes[index] == 13 {
            lines.append(10)
            if index + 1 < bytes.count, bytes[index + 1] == 10 { index += 1 }
        } else {
            lines.append(bytes[index])
        }
        index += 1
    }
    return lines
}
