import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// Asks the store a cheap question and throws when it cannot answer: the readiness probe.
    public func checkStoreAnswers() async throws {
        _ = try await store.team(TeamID(rawValue: "readiness-probe"))
    }

    /// How long the key that signs now has been signing, read from the store; `nil` when the store no
    /// longer lists it (another instance rotated it away).
    public func activeSigningKeyAge() async throws -> TimeInterval? {
        let activeID = keyRing.activeKeyID
        guard let active = try await store.signingKeys().first(where: { $0.id == activeID }) else { return nil }
        return clock.now().timeIntervalSince(active.activatedAt ?? active.createdAt)
    }
}
