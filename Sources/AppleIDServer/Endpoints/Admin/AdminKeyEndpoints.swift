import AppleIDAdminAPI
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for the provider's own signing keys (`siwa keys`).
struct AdminKeyEndpoints {
    let provider: AppleIDProvider

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/keys") { _, _ in
            try AdminEndpoints.json(state(rotated: nil))
        }
        // Rotates now, whatever the schedule says; the other instances publish the new keys at their
        // next check.
        admin.post("/keys/rotate") { _, _ in
            let rotated = try await provider.rotateSigningKeys()
            return try AdminEndpoints.json(state(rotated: rotated))
        }
    }

    private func state(rotated: Bool?) -> KeyRingState {
        KeyRingState(
            rotated: rotated, activeKeyID: provider.keyRing.activeKeyID.rawValue,
            publishedKeyIDs: provider.keyRing.publishedKeyIDs.map(\.rawValue))
    }
}
