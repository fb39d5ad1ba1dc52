import AppleIDProvider
import Foundation

extension MailRelay {
    /// Deletes the refusals older than the console's traffic window (nobody sees them any more) and
    /// relayed mail older than its retention; answers how many rows went. Run by the sweep that runs
    /// the engine's ``AppleIDProvider/purgeExpiredRecords()``.
    public func purgeExpiredMail() async throws -> Int {
        let now = provider.clock.now()
        return try await store.purgeRelayRefusals(before: now.addingTimeInterval(-Self.trafficWindow))
            + store.purgeRelayMail(receivedBefore: now.addingTimeInterval(-settings.retention))
    }
}
