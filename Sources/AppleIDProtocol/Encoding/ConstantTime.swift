/// Comparison of secrets (CSRF tokens, one-time codes) whose running time does not depend on where
/// the first difference is, so that an attacker cannot guess a secret byte by byte from timings.
/// Only the length may show.
public enum ConstantTime {
    /// Whether `lhs` and `rhs` have the same UTF-8 bytes, looking at every byte of both.
    public static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let lhs = Array(lhs.utf8)
        let rhs = Array(rhs.utf8)
        var difference = UInt8(truncatingIfNeeded: lhs.count ^ rhs.count)
        difference |= UInt8(truncatingIfNeeded: (lhs.count ^ rhs.count) >> 8)
        let length = max(lhs.count, rhs.count)
        for index in 0..<length {
            let left = index < lhs.count ? lhs[index] : 0
            let right = index < rhs.count ? rhs[index] : 0
            difference |= left ^ right
        }
        return difference == 0 && lhs.count == rhs.count
    }
}
