import AppleIDProvider
import Foundation

/// How many messages a relay address may take (spec §11: 100 a day), as the store checks it while
/// it writes: the address's forwards and replies received after `since`, with the batch's own.
public struct RelayDailyLimit: Sendable, Hashable {
    public var count: Int
    public var since: Date

    public init(count: Int, since: Date) {
        self.count = count
        self.since = since
    }
}
