import AppleIDProtocol
import Crypto
import Foundation
import _CryptoExtras

/// Tokens, key sets and a runner for the built `siwa` binary.
enum SiwaFixtures {
    static func json(_ object: Any) -> [UInt8] {
        // The objects are built by the tests from strings and integers: serialization cannot fail.
        [UInt8](try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    /// An RS256 compact JWS of `claims`, signed by `key` under `kid`.
    static func token(claims: [String: Any], key: _RSA.Signing.PrivateKey, kid: String) -> String {
        let input = Base64URL.encode(json(["alg": "RS256", "kid": kid])) + "." + Base64URL.encode(json(claims))
        let signature = try! key.signature(for: SHA256.hash(data: Array(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode([UInt8](signature.rawRepresentation))
    }

    static func jwks(_ key: _RSA.Signing.PrivateKey, kid: String) -> String {
        let primitives = try! key.publicKey.getKeyPrimitives()
        let jwk: [String: Any] = [
            "kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": Base64URL.encode([UInt8](primitives.modulus)),
            "e": Base64URL.encode([UInt8](primitives.publicExponent)),
        ]
        return String(decoding: json(["keys": [jwk]]), as: UTF8.self)
    }

    /// The `siwa` binary beside the test bundle (both are products of the same build).
    static var siwaURL: URL {
        let bundle = Bundle.main.bundleURL
        let directory = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
        return directory.appendingPathComponent("siwa")
    }

    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs `siwa` with `arguments`, feeding `standardInput`, and waits for it to exit.
    static func run(_ arguments: [String], standardInput: String = "") throws -> Run {
        let process = Process()
        process.executableURL = siwaURL
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data(standardInput.utf8))
        try input.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
