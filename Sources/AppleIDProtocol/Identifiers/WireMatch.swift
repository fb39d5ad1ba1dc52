/// Byte-exact matching of registered values (Return URLs, identifiers, audiences).
///
/// Swift's `String ==` and `String` hashing follow Unicode canonical equivalence: U+212A KELVIN
/// SIGN equals "K", and "é" precomposed equals "e" + U+0301. A registered URL or identifier must
/// match what was registered byte for byte (spec §3.1: Apple compares Return URLs exactly), so
/// every such comparison goes through here and compares the UTF-8 bytes.
public enum WireMatch {
    /// Whether both are absent, or both present with the same UTF-8 bytes.
    public static func exact(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs.utf8.elementsEqual(rhs.utf8)
        default: false
        }
    }
}

extension Sequence<String> {
    /// Whether one of the elements has exactly the UTF-8 bytes of `value` (see ``WireMatch``).
    public func containsExactly(_ value: String) -> Bool {
        contains { WireMatch.exact($0, value) }
    }
}
