import AppleIDProtocol
import Foundation

/// One of the provider's RSA-2048 signing keys as stored. Keys are published while `next` (before
/// they sign), sign while `active`, and stay published for a while once `retired`, so tokens they
/// signed keep verifying.
public struct SigningKeyRecord: Codable, Sendable, Hashable {
    public enum State: String, Codable, Sendable, Hashable {
        case next
        case active
        case retired
    }

    public var id: SigningKeyID
    public var privateKeyPEM: String
    public var state: State
    public var createdAt: Date
    public var activatedAt: Date?
    public var retiredAt: Date?

    public init(id: SigningKeyID, privateKeyPEM: String, state: State, createdAt: Date, activatedAt: Date? = nil, retiredAt: Date? = nil) {
        self.id = id
        self.privateKeyPEM = privateKeyPEM
        self.state = state
        self.createdAt = createdAt
        self.activatedAt = activatedAt
        self.retiredAt = retiredAt
    }
}
