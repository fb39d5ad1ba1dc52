import AppleIDProtocol
import AppleIDProvider
import Foundation

/// A new key's private half, kept until its one download.
public protocol KeyDownloadStore: Sendable {
    /// Keeps a new key's private half until its one download.
    func savePendingDownload(keyID: KeyID, privateKeyPEM: String) async throws
    /// Removes and returns the private half, atomically: of any number of callers, one gets it.
    func takePendingDownload(keyID: KeyID) async throws -> String?
    func hasPendingDownload(keyID: KeyID) async throws -> Bool
}
