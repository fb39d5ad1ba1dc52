/// A decoder that answers every question with a placeholder and records the keys a type asks for at
/// its top level, required or optional: the keys a request type reads, to compare with its documented
/// schema. A closed vocabulary (a `CaseIterable` enum) gets its first case, so that enums decode too.
package final class KeyProbingDecoder: Decoder {
    private(set) var keys: Set<String> = []
    package let codingPath: [any CodingKey] = []
    package let userInfo: [CodingUserInfoKey: Any] = [:]

    /// The keys `type` reads at its top level.
    package static func keys(of type: any Decodable.Type) throws -> Set<String> {
        let decoder = KeyProbingDecoder()
        _ = try type.init(from: decoder)
        return decoder.keys
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed(decoder: self))
    }
    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed() }
    package func singleValueContainer() throws -> any SingleValueDecodingContainer { Single() }

    fileprivate func record(_ key: some CodingKey) { keys.insert(key.stringValue) }

    /// A value of any type: a nested value is probed by a decoder of its own, whose keys are not ours.
    fileprivate static func placeholder<T: Decodable>(_ type: T.Type) throws -> T {
        if let vocabulary = type as? any (CaseIterable & Decodable).Type, let first = firstCase(of: vocabulary) as? T { return first }
        return try T(from: KeyProbingDecoder())
    }

    private static func firstCase<C: CaseIterable>(of type: C.Type) -> C? { type.allCases.first }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: KeyProbingDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool {
            decoder.record(key)
            return true
        }
        func decodeNil(forKey key: Key) throws -> Bool {
            decoder.record(key)
            return false
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            decoder.record(key)
            return try KeyProbingDecoder.placeholder(type)
        }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { scalar(key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { scalar(key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { scalar(key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { scalar(key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { scalar(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { scalar(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { scalar(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { scalar(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { scalar(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { scalar(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { scalar(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { scalar(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { scalar(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { scalar(key) }
        private func scalar<Value: ProbePlaceholder>(_ key: Key) -> Value {
            decoder.record(key)
            return Value.probePlaceholder
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            decoder.record(key)
            return try KeyProbingDecoder().container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            decoder.record(key)
            return Unkeyed()
        }
        func superDecoder() throws -> any Decoder { KeyProbingDecoder() }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            decoder.record(key)
            return KeyProbingDecoder()
        }
    }

    /// An empty array.
    private struct Unkeyed: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }
        func decodeNil() throws -> Bool { true }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try KeyProbingDecoder.placeholder(type) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try KeyProbingDecoder().container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed() }
        mutating func superDecoder() throws -> any Decoder { KeyProbingDecoder() }
    }

    /// A scalar: the type's placeholder (`""`, `0`, `false`); never null, so optionals are read through.
    private struct Single: SingleValueDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if let scalar = type as? any ProbePlaceholder.Type, let value = scalar.probePlaceholder as? T { return value }
            return try KeyProbingDecoder.placeholder(type)
        }
        func decode(_ type: Bool.Type) throws -> Bool { .probePlaceholder }
        func decode(_ type: String.Type) throws -> String { .probePlaceholder }
        func decode(_ type: Double.Type) throws -> Double { .probePlaceholder }
        func decode(_ type: Float.Type) throws -> Float { .probePlaceholder }
        func decode(_ type: Int.Type) throws -> Int { .probePlaceholder }
        func decode(_ type: Int8.Type) throws -> Int8 { .probePlaceholder }
        func decode(_ type: Int16.Type) throws -> Int16 { .probePlaceholder }
        func decode(_ type: Int32.Type) throws -> Int32 { .probePlaceholder }
        func decode(_ type: Int64.Type) throws -> Int64 { .probePlaceholder }
        func decode(_ type: UInt.Type) throws -> UInt { .probePlaceholder }
        func decode(_ type: UInt8.Type) throws -> UInt8 { .probePlaceholder }
        func decode(_ type: UInt16.Type) throws -> UInt16 { .probePlaceholder }
        func decode(_ type: UInt32.Type) throws -> UInt32 { .probePlaceholder }
        func decode(_ type: UInt64.Type) throws -> UInt64 { .probePlaceholder }
    }
}

/// The value a probed scalar takes.
private protocol ProbePlaceholder { static var probePlaceholder: Self { get } }
extension Bool: ProbePlaceholder { static var probePlaceholder: Bool { false } }
extension String: ProbePlaceholder { static var probePlaceholder: String { "" } }
extension Double: ProbePlaceholder { static var probePlaceholder: Double { 0 } }
extension Float: ProbePlaceholder { static var probePlaceholder: Float { 0 } }
extension Int: ProbePlaceholder { static var probePlaceholder: Int { 0 } }
extension Int8: ProbePlaceholder { static var probePlaceholder: Int8 { 0 } }
extension Int16: ProbePlaceholder { static var probePlaceholder: Int16 { 0 } }
extension Int32: ProbePlaceholder { static var probePlaceholder: Int32 { 0 } }
extension Int64: ProbePlaceholder { static var probePlaceholder: Int64 { 0 } }
extension UInt: ProbePlaceholder { static var probePlaceholder: UInt { 0 } }
extension UInt8: ProbePlaceholder { static var probePlaceholder: UInt8 { 0 } }
extension UInt16: ProbePlaceholder { static var probePlaceholder: UInt16 { 0 } }
extension UInt32: ProbePlaceholder { static var probePlaceholder: UInt32 { 0 } }
extension UInt64: ProbePlaceholder { static var probePlaceholder: UInt64 { 0 } }
