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

    /// Runs `siwa` with `arguments`, feeding `standardInput`, and waits for it to exit, on a thread of
    /// its own (``offThePool(_:)``).
    static func run(_ arguments: [String], standardInput: String = "") async throws -> Run {
        try await offThePool { try runBlocking(arguments, standardInput: standardInput) }
    }

    private static func runBlocking(_ arguments: [String], standardInput: String) throws -> Run {
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
        // Standard error is read beside standard output: a child that fills one pipe while the other
        // is read would wait for ever.
        let errorRead = offThePool { error.fileHandleForReading.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorRead.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs `body`, which blocks (a child process, a pipe), on a thread of its own. Swift's pool has one
    /// thread per core, and every test of the process shares it: a test that waited for a child there
    /// would stop every other test's tasks (their in-process servers' handlers included) until it exits.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result(catching: body)) }.start()
        }
    }

    /// Runs `body` on a thread of its own; ``BlockingResult/wait()`` blocks the calling thread for its result.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) -> BlockingResult<T> {
        let result = BlockingResult<T>()
        Thread { result.set(body()) }.start()
        return result
    }

    /// A value another thread sets once, waited for by blocking (only off Swift's pool).
    final class BlockingResult<T: Sendable>: @unchecked Sendable {  // safe: `value` is read and written under `condition`
        private let condition = NSCondition()
        private var value: T?

        func set(_ newValue: T) {
            condition.lock()
            value = newValue
            condition.signal()
            condition.unlock()
        }

        func wait() -> T {
            condition.lock()
            defer { condition.unlock() }
            while value == nil { condition.wait() }
            return value!
        }
    }
}
