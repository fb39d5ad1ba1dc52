/// Decodes a request type whose properties are strings (or other types read from one string, such as
/// `Int` and `Bool`) from a flat form, through ``FormFields``. Nested types and lists have no flat
/// form, and fail with ``FormFieldsError/unreadable(_:)``.
public struct FlatFormDecoder: Sendable {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from form: String) throws -> T {
        try T(from: FieldsDecoder(fields: try FormFields.parse(form)))
    }
}

private struct FieldsDecoder: Decoder {
    let fields: [String: String]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FieldsContainer<Key>(fields: fields))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw FormFieldsError.unreadable("(the form as a list)") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw FormFieldsError.unreadable("(the form as one value)") }
}

private struct FieldsContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [String: String]
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { fields.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }
    func decodeNil(forKey key: Key) throws -> Bool { fields[key.stringValue] == nil }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        guard let value = fields[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: [], debugDescription: "\(key.stringValue) is missing"))
        }
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try parsed(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try parsed(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try parsed(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try parsed(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try parsed(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try parsed(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try parsed(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try parsed(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try parsed(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try parsed(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try parsed(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try parsed(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try parsed(key) }

    /// A `String`-backed enum or wrapper decodes through its own single value, which is this field.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if T.self == String.self, let value = try decode(String.self, forKey: key) as? T { return value }
        return try T(from: FieldDecoder(value: try decode(String.self, forKey: key), key: key))
    }

    private func parsed<T: LosslessStringConvertible>(_ key: Key) throws -> T {
        guard let value = T(try decode(String.self, forKey: key)) else { throw FormFieldsError.unreadable(key.stringValue) }
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw FormFieldsError.unreadable(key.stringValue)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw FormFieldsError.unreadable(key.stringValue) }
    func superDecoder() throws -> any Decoder { throw FormFieldsError.unreadable("super") }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw FormFieldsError.unreadable(key.stringValue) }
}

/// One field as a single value, for types that decode themselves from a string.
private struct FieldDecoder: Decoder, SingleValueDecodingContainer {
    let value: String
    let key: any CodingKey
    var codingPath: [any CodingKey] { [key] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw FormFieldsError.unreadable(key.stringValue)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw FormFieldsError.unreadable(key.stringValue) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode(_ type: String.Type) throws -> String { value }
    func decode(_ type: Bool.Type) throws -> Bool { try parsed() }
    func decode(_ type: Double.Type) throws -> Double { try parsed() }
    func decode(_ type: Float.Type) throws -> Float { try parsed() }
    func decode(_ type: Int.Type) throws -> Int { try parsed() }
    func decode(_ type: Int8.Type) throws -> Int8 { try parsed() }
    func decode(_ type: Int16.Type) throws -> Int16 { try parsed() }
    func decode(_ type: Int32.Type) throws -> Int32 { try parsed() }
    func decode(_ type: Int64.Type) throws -> Int64 { try parsed() }
    func decode(_ type: UInt.Type) throws -> UInt { try parsed() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try parsed() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try parsed() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try parsed() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try parsed() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    private func parsed<T: LosslessStringConvertible>() throws -> T {
        guard let parsed = T(value) else { throw FormFieldsError.unreadable(key.stringValue) }
        return parsed
    }
}
