import Foundation
import SignInWithApple
import Synchronization

/// A clock for the kit that only moves when told to.
final class KitClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date()) { current = Mutex(start) }

    var now: @Sendable () -> Date { { self.current.withLock { $0 } } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// The real transport, counting key-set fetches and able to fail them (a JWKS outage).
final class ObservedTransport: HTTPTransport {
    private let inner = AsyncHTTPClientTransport()
    private let state = Mutex((keyFetches: 0, keysDown: false))

    var keyFetches: Int { state.withLock { $0.keyFetches } }

    func setKeysDown(_ down: Bool) { state.withLock { $0.keysDown = down } }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        if request.url.hasSuffix("/auth/keys") {
            let down = state.withLock { state -> Bool in
                state.keyFetches += 1
                return state.keysDown
            }
            if down { return HTTPTransportResponse(status: 503, body: Array("unavailable".utf8)) }
        }
        return try await inner.send(request)
    }
}
