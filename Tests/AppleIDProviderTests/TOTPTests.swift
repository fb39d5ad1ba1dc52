import Foundation
import Testing

@testable import AppleIDProvider

/// RFC 6238 Appendix B's SHA-1 vectors: the 20-byte ASCII key "12345678901234567890", 30-second
/// steps from 1970, 8 digits; and the 6 digits the sign-in pages ask for.
@Suite("TOTP (RFC 6238)")
struct TOTPTests {
    static let rfcKey = Array("12345678901234567890".utf8)

    @Test(
        "RFC 6238 Appendix B: SHA-1, 8 digits",
        arguments: [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ])
    func appendixB(_ unixTime: Int64, _ expected: String) {
        let step = TOTP.step(at: Date(timeIntervalSince1970: TimeInterval(unixTime)))
        #expect(TOTP.code(key: Self.rfcKey, step: step, digits: 8) == expected)
    }

    @Test("six digits are the last six of the RFC's eight, zero-padded", arguments: [(59, "287082"), (1_111_111_109, "081804")])
    func sixDigits(_ unixTime: Int64, _ expected: String) {
        let step = TOTP.step(at: Date(timeIntervalSince1970: TimeInterval(unixTime)))
        #expect(TOTP.code(key: Self.rfcKey, step: step) == expected)
    }

    @Test("a step is 30 seconds: 29 s and 0 s share a code, 30 s starts the next step")
    func stepBoundaries() {
        #expect(TOTP.step(at: Date(timeIntervalSince1970: 0)) == 0)
        #expect(TOTP.step(at: Date(timeIntervalSince1970: 29.9)) == 0)
        #expect(TOTP.step(at: Date(timeIntervalSince1970: 30)) == 1)
    }
}
