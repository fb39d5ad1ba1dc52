import ExtrasBase64

/// Unpadded base64url (RFC 4648 §5), as every JOSE structure uses it.
public enum Base64URL {
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64.encodeToString(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    public static func decode(_ string: String) throws -> [UInt8] {
        try Base64.decode(string: string, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// Decodes base64url text given as bytes (a segment of a token, without copying it into a String).
    public static func decode(bytes: some Collection<UInt8>) throws -> [UInt8] {
        try Base64.decode(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }
}
