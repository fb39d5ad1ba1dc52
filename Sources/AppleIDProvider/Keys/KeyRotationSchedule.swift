import Foundation

/// When the signing keys rotate. A key signs for ``rotationInterval``; the key that follows it is
/// published for at least ``publicationLead`` before it signs, so relying parties that cache
/// `/auth/keys` already hold it; a retired key stays published for ``retiredKeyRetention``, longer
/// than any token it signed lives.
public struct KeyRotationSchedule: Sendable, Hashable {
    public var rotationInterval: TimeInterval = 30 * 86_400
    public var publicationLead: TimeInterval = 86_400
    public var retiredKeyRetention: TimeInterval = 7 * 86_400

    public init() {}

    /// Whether the ring whose keys are `records` should rotate at `now`: the active key has signed
    /// for the whole interval, and the next key has been published long enough.
    public func isDue(_ records: [SigningKeyRecord], now: Date) -> Bool {
        guard let active = records.first(where: { $0.state == .active }),
            let next = records.first(where: { $0.state == .next })
        else { return false }
        let activeSince = active.activatedAt ?? active.createdAt
        return now >= activeSince.addingTimeInterval(rotationInterval) && now >= next.createdAt.addingTimeInterval(publicationLead)
    }
}
