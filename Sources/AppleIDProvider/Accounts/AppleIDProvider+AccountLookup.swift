import Foundation

extension AppleIDProvider {
    /// The Apple ID `appleID` (in any case), deleted or not; `nil` when there is none. For tools that
    /// name users by their Apple ID (the emulator, the demo seed) and then act on the account.
    public func lookUpAccount(appleID: String) async throws -> AppleIDAccount? {
        try await store.account(appleID: appleID)
    }
}
