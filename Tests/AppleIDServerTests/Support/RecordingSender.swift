import AppleIDProvider
import Foundation
import Synchronization

/// A notification endpoint in memory: answers with the scripted statuses (then 200) and keeps the bodies.
final class RecordingSender: NotificationSender {
    private let state: Mutex<(statuses: [Int], bodies: [[UInt8]], destinations: [NotificationDestination])>

    init(statuses: [Int] = []) { state = Mutex((statuses, [], [])) }

    var bodies: [[UInt8]] { state.withLock { $0.bodies } }
    var urls: [String] { state.withLock { $0.destinations.map(\.url) } }
    var destinations: [NotificationDestination] { state.withLock { $0.destinations } }

    func post(_ body: [UInt8], to destination: NotificationDestination, timeout: TimeInterval) async throws -> Int {
        state.withLock { state in
            state.bodies.append(body)
            state.destinations.append(destination)
            return state.statuses.isEmpty ? 200 : state.statuses.removeFirst()
        }
    }
}
