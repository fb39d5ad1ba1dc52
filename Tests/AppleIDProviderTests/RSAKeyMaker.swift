import _CryptoExtras

enum RSAKeyMaker {
    static func pem(bits: Int) throws -> String {
        try _RSA.Signing.PrivateKey(keySize: .init(bitCount: bits)).pemRepresentation
    }
}
