import AppleIDProtocol
import CoreMetrics
import Foundation
import Logging
import Synchronization

/// Delivers the notification outbox: POSTs `{"payload": "<jwt>"}` to the app group's registered
/// endpoint until it answers 2xx, with exponential backoff and jitter, within a time budget.
/// Delivery is at least once: the outbox row is only marked delivered after a 2xx, so a restart
/// resends what was in flight (the `jti` stays the same, receivers can dedupe).
///
/// One team's endpoint must not hold back another's: a pass leases at most ``Policy/budgetPerGroup``
/// messages of a group, every group's earliest first, and sends them all at once, so a group whose
/// endpoint never answers costs the others nothing but a task waiting on its timeout.
public struct NotificationDelivery: Sendable {
    public struct Policy: Sendable, Hashable {
        /// Delay after the first failure; doubled after each further failure.
        public var initialDelay: TimeInterval = 5
        public var maximumDelay: TimeInterval = 3600
        /// A message still undelivered this long after it was written is abandoned.
        public var deliveryWindow: TimeInterval = 24 * 3600
        public var requestTimeout: TimeInterval = 10
        public var batchSize = 50
        /// Messages of one app group in one pass (sent concurrently); the rest of its backlog waits for
        /// later passes while the other groups' messages go out.
        public var budgetPerGroup = 4
        /// How long one pass holds the messages it took: other instances leave them alone until then,
        /// and take them over after (this instance died or hangs).
        public var leaseDuration: TimeInterval = 60

        public init() {}
    }

    let provider: AppleIDProvider
    let sender: any NotificationSender
    let policy: Policy
    public let logger: Logger
    /// This instance's name on the leases it takes.
    let leaseHolder: String
    /// The messages this instance's passes are sending now. Passes may overlap (one waits on a slow
    /// endpoint while the next starts); a later pass leases the same messages again, as their holder,
    /// and leaves them to the pass that sends them. They still count against their group's budget.
    let inFlight = InFlightMessages()

    public init(
        provider: AppleIDProvider, sender: any NotificationSender, policy: Policy = Policy(), logger: Logger, leaseHolder: String? = nil
    ) {
        self.provider = provider
        self.sender = sender
        self.policy = policy
        self.logger = logger
        self.leaseHolder = leaseHolder ?? "instance-" + provider.random.string(length: 16, alphabet: "0123456789abcdef")
    }

    /// What became of one message in a pass: the message as recorded after its attempt, and the
    /// request body that was sent (`nil` when nothing was: no endpoint, or a refused destination).
    public struct Report: Sendable {
        public let message: OutboxMessage
        public let attempt: DeliveryAttempt
        public let body: [UInt8]?
        /// The endpoint answered 2xx.
        public var delivered: Bool { message.deliveredAt != nil }
    }

    /// One pass: leases the messages due now, delivers those no other pass is sending, concurrently,
    /// and hands their leases back; returns how many were attempted. With several instances, each
    /// message is in one instance's pass at a time.
    @discardableResult
    public func deliverDueMessages() async throws -> Int {
        try await deliverDueMessagesReporting().count
    }

    /// One pass, as ``deliverDueMessages()``, answering what became of each message it attempted,
    /// oldest first (the emulator hands the delivered ones to the test).
    public func deliverDueMessagesReporting() async throws -> [Report] {
        // Organizations' app withdrawals that are due put their `consent-revoked` messages in the
        // outbox first, so this pass sends them. Their failure must not hold back delivery.
        do {
            try await provider.revokeWithdrawnApps()
        } catch {
            logger.error("organization app withdrawal failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
        let now = provider.clock.now()
        let expiry = now.addingTimeInterval(policy.leaseDuration)
        let leased = try await provider.store.leaseDueMessages(
            at: now, holder: leaseHolder, until: expiry, limit: policy.batchSize, perGroup: policy.budgetPerGroup)
        let taken = inFlight.take(leased)
        guard !taken.isEmpty else { return [] }
        let reports: [Report]
        do {
            reports = try await withThrowingTaskGroup(of: Report.self) { group in
                // A message whose lease could run out during its request waits for the next pass, since
                // another instance may take it over from then on.
                for message in taken where provider.clock.now().addingTimeInterval(policy.requestTimeout) < expiry {
                    group.addTask { try await deliver(message) }
                }
                return try await group.reduce(into: [Report]()) { $0.append($1) }
            }
        } catch {
            try? await handBack(taken)
            throw error
        }
        try await handBack(taken)
        let places = Dictionary(uniqueKeysWithValues: taken.enumerated().map { ($0.element.id, $0.offset) })
        return reports.sorted { places[$0.message.id, default: 0] < places[$1.message.id, default: 0] }
    }

    /// Hands back every lease this instance holds, so that another instance delivers those messages
    /// without waiting for the leases to run out (graceful shutdown).
    public func releaseLeases() async throws {
        try await provider.store.releaseLeases(holder: leaseHolder)
    }

    /// Ends a pass: its leases go back first, then its messages leave ``inFlight``, so no other pass of
    /// this instance starts one of them while its lease is being dropped.
    private func handBack(_ messages: [OutboxMessage]) async throws {
        defer { inFlight.finish(messages) }
        try await provider.store.releaseLeases(holder: leaseHolder, messageIDs: messages.map(\.id))
    }

    private func deliver(_ message: OutboxMessage) async throws -> Report {
        let started = provider.clock.now()
        var next = message
        next.attempts += 1
        let endpoint = try await endpoint(of: message.groupID)
        let began = ContinuousClock.now
        let (status, failure, body) = await post(message, to: endpoint)
        let elapsed = ContinuousClock.now - began
        let latency = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        if failure == nil {
            next.deliveredAt = started
        } else if started.timeIntervalSince(message.createdAt) >= policy.deliveryWindow {
            next.abandonedAt = started
        } else {
            next.nextAttemptAt = started.addingTimeInterval(delay(afterAttempt: next.attempts))
        }
        let attempt = DeliveryAttempt(
            messageID: message.id, attemptedAt: started, status: status, latencyMilliseconds: latency, error: failure?.summary,
            endpoint: endpoint ?? "")
        try await provider.store.record(attempt, updating: next)
        let outcome = next.deliveredAt != nil ? "delivered" : next.abandonedAt != nil ? "abandoned" : "retry"
        Counter(label: "siwa_notification_delivery_attempts_total", dimensions: [("outcome", outcome)], factory: provider.metrics).increment()
        logger.info(
            "notification delivery attempt",
            metadata: [
                "jti": "\(message.id)", "type": "\(message.event.type.rawValue)", "aud": "\(message.audience)", "attempt": "\(next.attempts)",
                "status": "\(status.map(String.init) ?? "-")", "latency_ms": "\(latency)", "error": "\(failure?.summary ?? "-")",
                "outcome": "\(outcome)",
            ])
        return Report(message: next, attempt: attempt, body: body)
    }

    /// The group's endpoint; for a removed primary App ID, the one it had (its last `consent-revoked`
    /// messages).
    private func endpoint(of groupID: ClientID) async throws -> String? {
        if let group = try await provider.store.appGroup(groupID) { return group.notificationEndpoint }
        return try await provider.store.removedIdentifier(groupID)?.notificationEndpoint
    }

    /// Checks the destination again (DNS may have changed since the endpoint was saved), then posts
    /// to the checked address. Only coarse failures come back; the precise error is logged at debug.
    private func post(
        _ message: OutboxMessage, to endpoint: String?
    ) async -> (status: Int?, failure: DeliveryFailure?, body: [UInt8]?) {
        guard let endpoint else { return (nil, .noEndpoint(message.groupID), nil) }
        var sent: [UInt8]?
        do {
            let destination = try await provider.notificationDestination(for: endpoint)
            let body = try Self.requestBody(for: message, provider: provider)
            sent = body
            let status = try await sender.post(body, to: destination, timeout: policy.requestTimeout)
            return (status, (200..<300).contains(status) ? nil : .http(status), body)
        } catch let failure as DeliveryFailure {
            return (nil, failure, sent)
        } catch {
            logger.debug("notification post failed", metadata: ["jti": "\(message.id)", "error": "\(error)"])
            return (nil, .couldNotConnect, sent)
        }
    }

    /// The exact body POSTed to the app's endpoint: `{"payload": "<jwt>"}`, signed by the provider.
    public static func requestBody(for message: OutboxMessage, provider: AppleIDProvider) throws -> [UInt8] {
        Array(try JSONEncoder().encode(["payload": try provider.signedNotification(message)]))
    }

    /// `initialDelay × 2^(attempt−1)`, capped, times a random factor in [0.5, 1) so that receivers
    /// recovering from an outage are not hit by every retry at once.
    func delay(afterAttempt attempt: Int) -> TimeInterval {
        let exponential = min(policy.initialDelay * pow(2, Double(max(0, attempt - 1))), policy.maximumDelay)
        let jitter = 0.5 + Double(provider.random.bytes(count: 1)[0]) / 512
        return exponential * jitter
    }
}

/// How a notification reaches the app's endpoint (`siwa serve`: HTTP); returns the HTTP status.
/// Connects only to `destination.address` when it has one; does not follow redirects; throws
/// ``DeliveryFailure`` classes, never a client's precise error.
public protocol NotificationSender: Sendable {
    func post(_ body: [UInt8], to destination: NotificationDestination, timeout: TimeInterval) async throws -> Int
}

/// The IDs of the messages an instance is sending now.
final class InFlightMessages: Sendable {
    private let ids = Mutex<Set<String>>([])

    /// Marks and returns those of `messages` that no pass is sending.
    func take(_ messages: [OutboxMessage]) -> [OutboxMessage] {
        ids.withLock { ids in messages.filter { ids.insert($0.id).inserted } }
    }

    func finish(_ messages: [OutboxMessage]) {
        ids.withLock { ids in ids.subtract(messages.map(\.id)) }
    }
}
