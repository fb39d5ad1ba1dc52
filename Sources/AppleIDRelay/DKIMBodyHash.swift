import AppleIDProvider
import Crypto
import Foundation

/// The DKIM body hash (RFC 6376 §3.4.3, §3.4.4, §3.7) computed as the body streams past, a chunk
/// at a time: a large message is never canonicalized whole. Empty lines are only counted until a
/// line with content shows they are not the body's last (both canonicalizations drop trailing empty
/// lines); relaxed white space is only remembered until it is known not to end its line.
struct DKIMBodyHash {
    private let mode: Canonicalization
    /// The `l=` tag: how many canonical bytes the signature covers (`nil`: all).
    private let limit: Int?
    private var hasher = SHA256()
    private var pending: [UInt8] = []
    private(set) var canonicalCount = 0
    private var emptyLines = 0
    private var lineHasContent = false
    private var afterCR = false
    private var afterSpace = false

    init(mode: Canonicalization, limit: Int?) {
        self.mode = mode
        self.limit = limit
    }

    mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { take(byte) }
        flush()
    }

    /// The hash, and whether the body was at least as long as `l=` says.
    mutating func finish() -> (digest: [UInt8], coversLimit: Bool) {
        if afterCR {
            afterCR = false
            content(UInt8(ascii: "\r"))
        }
        if lineHasContent { emitLineEnd() }
        if canonicalCount == 0, mode == .simple { emitLineEnd() }
        flush()
        return (Array(hasher.finalize()), limit.map { canonicalCount >= $0 } ?? true)
    }

    private mutating func take(_ byte: UInt8) {
        if afterCR {
            afterCR = false
            if byte == UInt8(ascii: "\n") {
                endLine()
                return
            }
            content(UInt8(ascii: "\r"))
        }
        if byte == UInt8(ascii: "\r") {
            afterCR = true
        } else if byte == UInt8(ascii: "\n") {
            endLine()
        } else if mode == .relaxed, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
            afterSpace = true
        } else {
            content(byte)
        }
    }

    private mutating func content(_ byte: UInt8) {
        if !lineHasContent {
            for _ in 0..<emptyLines { emitLineEnd() }
            emptyLines = 0
            lineHasContent = true
        }
        if afterSpace {
            afterSpace = false
            emit(UInt8(ascii: " "))
        }
        emit(byte)
    }

    private mutating func endLine() {
        afterSpace = false  // relaxed: white space at the end of a line is dropped
        if lineHasContent {
            emitLineEnd()
            lineHasContent = false
        } else {
            emptyLines += 1
        }
    }

    private mutating func emitLineEnd() {
        emit(UInt8(ascii: "\r"))
        emit(UInt8(ascii: "\n"))
    }

    private mutating func emit(_ byte: UInt8) {
        defer { canonicalCount += 1 }
        if let limit, canonicalCount >= limit { return }
        pending.append(byte)
        if pending.count >= 4_096 { flush() }
    }

    private mutating func flush() {
        hasher.update(data: pending)
        pending.removeAll(keepingCapacity: true)
    }
}
