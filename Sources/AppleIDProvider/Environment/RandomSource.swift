import AppleIDProtocol
import Crypto
import Foundation
import Synchronization

/// Where the provider's random bytes come from (codes, tokens, relay addresses, subjects, CSRF).
/// Injected so tests can be deterministic.
public protocol RandomSource: Sendable {
    func bytes(count: Int) -> [UInt8]
}

/// Cryptographically secure randomness from the operating system.
public struct SystemRandomSource: RandomSource {
    public init() {}

    /// Eight bytes per draw from the system generator (one `getrandom` each), not one.
    public func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var output = [UInt8]()
        output.reserveCapacity(count + 8)
        while output.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { output.append(contentsOf: $0) }
        }
        output.removeLast(output.count - count)
        return output
    }
}

/// A reproducible stream: SHA-256 of a seed and a counter. For tests only: predictable by design.
public final class SeededRandomSource: RandomSource {
    private let seed: [UInt8]
    private let counter = Mutex<UInt64>(0)

    public init(seed: String) { self.seed = Array(seed.utf8) }

    public func bytes(count: Int) -> [UInt8] {
        var output: [UInt8] = []
        while output.count < count {
            let block = counter.withLock { value -> UInt64 in
                value += 1
                return value
            }
            var input = seed
            withUnsafeBytes(of: block.bigEndian) { input.append(contentsOf: $0) }
            output.append(contentsOf: SHA256.hash(data: input))
        }
        return Array(output.prefix(count))
    }
}

extension RandomSource {
    /// Lowercase hexadecimal of `count` random bytes.
    public func hex(bytes count: Int) -> String { Hex.encode(bytes(count: count)) }

    /// A string of `length` characters drawn uniformly from `alphabet` (rejection sampling, no bias).
    public func string(length: Int, alphabet: String) -> String {
        let characters = Array(alphabet)
        precondition(!characters.isEmpty && characters.count <= 256)
        let limit = 256 - 256 % characters.count
        var result = ""
        result.reserveCapacity(length)
        var produced = 0
        while produced < length {
            for byte in bytes(count: length) where Int(byte) < limit && produced < length {
                result.append(characters[Int(byte) % characters.count])
                produced += 1
            }
        }
        return result
    }

    /// A random decimal string of exactly `digits` digits.
    public func digits(_ digits: Int) -> String { string(length: digits, alphabet: "0123456789") }
}
