import AppleIDProtocol
import Foundation

/// One rotation of the signing keys, written all at once: the active key retires, the next key
/// becomes active, a fresh key is published as the next one.
public struct SigningKeyRotation: Sendable, Hashable {
    /// The key that is active when the rotation was decided.
    public var retiring: SigningKeyID
    /// The key published as next, which now signs.
    public var promoting: SigningKeyID
    /// The new next key, published from now on.
    public var publishing: SigningKeyRecord
    public var date: Date

    public init(retiring: SigningKeyID, promoting: SigningKeyID, publishing: SigningKeyRecord, date: Date) {
        self.retiring = retiring
        self.promoting = promoting
        self.publishing = publishing
        self.date = date
    }
}

/// The writes that keep one key ring when several server instances share a store: of instances that
/// start or rotate at the same moment, one wins and the others read what it wrote.
public protocol SigningKeyRotationStore: Sendable {
    /// Inserts `key` unless a key in its state exists already (there is one `active` and one `next`
    /// key at most); returns whether it was inserted.
    func insertSigningKeyIfAbsent(_ key: SigningKeyRecord) async throws -> Bool
    /// Applies `rotation` only if `rotation.retiring` is still the active key and
    /// `rotation.promoting` still the next one; returns whether it was applied. Of any number of
    /// concurrent callers with the same `retiring` key, exactly one gets `true`; the others write
    /// nothing.
    func rotateSigningKeys(_ rotation: SigningKeyRotation) async throws -> Bool
}
