/// Why a string could not be read as a compact JWS. The description is safe to log: it names the
/// segment and the counts, never the token's content.
public struct CompactJWSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The three parts of a compact JWS.
    public enum Segment: String, Sendable, Hashable {
        case header, payload, signature
    }

    public enum Reason: Sendable, Hashable {
        case tooLarge(bytes: Int, limit: Int)
        case segmentCount(Int)
        case notBase64URL(Segment)
        case notJSON(Segment)
    }

    public let reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    public static func tooLarge(bytes: Int, limit: Int) -> Self { Self(.tooLarge(bytes: bytes, limit: limit)) }
    public static func segmentCount(_ count: Int) -> Self { Self(.segmentCount(count)) }
    public static func notBase64URL(_ segment: Segment) -> Self { Self(.notBase64URL(segment)) }
    public static func notJSON(_ segment: Segment) -> Self { Self(.notJSON(segment)) }

    public var description: String {
        switch reason {
        case .tooLarge(let bytes, let limit): "the token has \(bytes) bytes, more than the \(limit) accepted"
        case .segmentCount(let count): "a compact JWS has 3 segments, found \(count)"
        case .notBase64URL(let segment): "the \(segment.rawValue) is not base64url"
        case .notJSON(let segment): "the \(segment.rawValue) is not base64url JSON"
        }
    }
}
