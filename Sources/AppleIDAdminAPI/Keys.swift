import Foundation

/// The server's own signing keys as this instance publishes them (`GET /admin/keys`,
/// `POST /admin/keys/rotate`).
public struct KeyRingState: Codable, Sendable, Equatable {
    /// Whether this call rotated the keys (`false`: another instance rotated them at the same moment).
    public var rotated: Bool?
    public var activeKeyID: String
    public var publishedKeyIDs: [String]

    public init(rotated: Bool?, activeKeyID: String, publishedKeyIDs: [String]) {
        self.rotated = rotated
        self.activeKeyID = activeKeyID
        self.publishedKeyIDs = publishedKeyIDs
    }

    enum CodingKeys: String, CodingKey {
        case rotated
        case activeKeyID = "active_kid"
        case publishedKeyIDs = "published_kids"
    }
}
