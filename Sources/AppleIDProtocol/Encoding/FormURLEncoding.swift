import Foundation

/// `application/x-www-form-urlencoded` values as both halves write them: RFC 3986 unreserved
/// characters stay, everything else is percent-encoded (so `+`, `&`, `=`, `/` and spaces survive).
public enum FormURLEncoding {
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    public static func encode(_ value: String) -> String { value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }

    /// `name=value&…`, leaving out fields without a value.
    public static func join(_ fields: [(String, String?)]) -> String {
        fields.compactMap { name, value in value.map { "\(encode(name))=\(encode($0))" } }.joined(separator: "&")
    }

    /// ``join(_:)`` as the bytes of a request body.
    public static func body(_ fields: [(String, String?)]) -> [UInt8] { Array(join(fields).utf8) }
}
