import AppleIDProvider
import Foundation
import Synchronization

/// A notification endpoint in memory: answers with the scripted statuses (then 200) and keeps the bodies.
package final class RecordingSender: NotificationSender {
    private let state: Mutex<(statuses: [Int], bodies: [[UInt8]], destinations: [NotificationDestination])>

    package init(statuses: [Int] = []) { state = Mutex((statuses, [], [])) }

    package var bodies: [[UInt8]] { state.withLock { $0.bodies } }
    package var urls: [String] { state.withLock { $0.destinations.map(\.url) } }
    package var destinations: [NotificationDestination] { state.withLock { $0.destinations } }

    package func post(_ body: [UInt8], to destination: NotificationDestination, timeout: TimeInterval) async throws -> Int {
        state.withLock { state in
            state.bodies.append(body)
            state.destinations.append(destination)
            return state.statuses.isEmpty ? 200 : state.statuses.removeFirst()
        }
    }
}
