import Foundation

extension ClientSecretRulebook {
    /// `iat`: an integer time. Apple documents no rule for an `iat` in the future; we accept
    /// ``issuedAtSkew`` seconds of clock difference and refuse more.
    func issuedAt(_ claim: ReadingClaim<Int>, now: Int) -> (Bool, String) {
        guard let iat = claim.value else { return (false, "iat is \(Self.describe(claim)); Apple requires an integer time") }
        guard ClientSecretClaims.plausibleTimes.contains(iat) else { return (false, Self.outOfRange("iat", iat)) }
        guard iat <= now + issuedAtSkew else {
            return (
                false,
                "iat is \(Self.duration(iat - now)) in the future (iat \(iat), now \(now)); at most \(issuedAtSkew) s of clock difference is accepted"
            )
        }
        return iat <= now
            ? (true, "issued \(Self.duration(now - iat)) ago (iat \(iat))")
            : (true, "issued \(Self.duration(iat - now)) in the future, within the \(issuedAtSkew) s clock difference (iat \(iat))")
    }

    /// `exp`: an integer time after now (Apple: an expired secret is `invalid_client`).
    func expiry(_ claim: ReadingClaim<Int>, now: Int) -> (Bool, String) {
        guard let exp = claim.value else { return (false, "exp is \(Self.describe(claim)); Apple requires an integer time") }
        guard ClientSecretClaims.plausibleTimes.contains(exp) else { return (false, Self.outOfRange("exp", exp)) }
        guard exp > now else { return (false, "expired \(Self.duration(now - exp)) ago (exp \(exp), now \(now))") }
        return (true, "expires in \(Self.duration(exp - now)) (exp \(exp))")
    }

    /// Apple's documented maximum is measured from its own clock: `exp` "must not be greater than
    /// 15777000 (6 months in seconds) from the Current UNIX Time on the server". `exp − iat` is not
    /// what Apple documents, so an old `iat` does not matter.
    func lifetime(_ exp: Int?, now: Int) -> (Bool, String) {
        guard let exp, ClientSecretClaims.plausibleTimes.contains(exp) else { return (false, "exp is unreadable: the lifetime is unknown") }
        let remaining = exp - now
        let text = "exp is \(Self.duration(max(remaining, 0))) from now (\(Self.grouped(remaining)) s); Apple's maximum is \(Self.maximumText)"
        return (remaining <= ClientSecretClaims.maximumLifetime, text)
    }

    /// Refused before any arithmetic, so that no subtraction of an outside value can overflow.
    static func outOfRange(_ name: String, _ value: Int) -> String {
        "\(name) \(value) is not a time in seconds since 1970 (0 to year 9999)"
    }

    static let maximumText = "182.6 days (15,777,000 s)"

    /// `15777000` → `15,777,000`.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var text = digits
        for index in stride(from: digits.count - 3, to: 0, by: -3) { text.insert(",", at: text.index(text.startIndex, offsetBy: index)) }
        return (value < 0 ? "-" : "") + text
    }

    /// `181 days`, `182.6 days`, `5 h`, `90 s`: readable, and exact when whole.
    public static func duration(_ seconds: Int) -> String {
        let units: [(Int, String)] = [(86_400, "days"), (3600, "h"), (60, "min")]
        for (size, unit) in units where seconds >= size {
            let value = Double(seconds) / Double(size)
            let text = seconds % size == 0 ? String(seconds / size) : String(format: "%.1f", value)
            return text + " " + (unit == "days" && text == "1" ? "day" : unit)
        }
        return "\(seconds) s"
    }

    /// A value from outside, quoted and shortened for an explanation that may be logged.
    static func quoted(_ value: String?) -> String {
        guard let value else { return "missing or not a string" }
        return value.count > 64 ? "\"\(value.prefix(64))…\" (\(value.count) characters)" : "\"\(value)\""
    }

    static func describe<Value>(_ claim: ReadingClaim<Value>) -> String {
        switch claim {
        case .missing: "missing"
        case .wrongType: "not of the right JSON type"
        case .value(let value): "\(value)"
        }
    }
}
