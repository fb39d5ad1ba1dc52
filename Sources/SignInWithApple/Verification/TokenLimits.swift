/// The bounds the verifiers hold a token to before trusting anything in it.
///
/// Apple's identity tokens are under 2 KiB and their identifiers are short (a `sub` is 44
/// characters: `000123.<32 hex>.0123`), so these bounds leave room for any real token while keeping
/// an attacker's megabyte of claims, or an empty identifier, out of the application's database.
public enum TokenLimits {
    /// The largest token, in bytes, a verifier agrees to parse: 16 KiB, eight times a real one.
    /// Larger tokens are refused before any base64 or JSON is decoded.
    public static let maximumTokenBytes = 16 * 1024

    /// The longest `sub`, `aud` and `iss`, in UTF-8 bytes: 255, the usual `VARCHAR(255)` of the
    /// column an app keys its accounts by, and above the 253 bytes of the longest DNS name (the
    /// reverse-DNS bundle IDs and Services IDs of `aud`, the host of `iss`).
    public static let maximumIdentifierBytes = 255

    /// Refuses an empty identifier claim, or one over ``maximumIdentifierBytes``.
    static func checkIdentifier(_ name: String, _ value: String) throws {
        let bytes = value.utf8.count
        guard bytes > 0, bytes <= maximumIdentifierBytes else {
            throw IdentityTokenError.claimLengthOutOfBounds(claim: name, bytes: bytes)
        }
    }
}
