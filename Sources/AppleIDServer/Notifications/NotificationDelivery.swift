import AppleIDProtocol
import AppleIDProvider
import AsyncHTTPClient
import CoreMetrics
import Foundation
import Logging
import NIOCore

/// Delivers the notification outbox: POSTs `{"payload": "<jwt>"}` to the app group's registered
/// endpoint until it answers 2xx, with exponential backoff and jitter, within a time budget.
/// Delivery is at least once: the outbox row is only marked delivered after a 2xx, so a restart
/// resends what was in flight (the `jti` stays the same, receivers can dedupe).
public struct NotificationDelivery: Sendable {
    public struct Policy: Sendable, Hashable {
        /// Delay after the first failure; doubled after each further failure.
        public var initialDelay: TimeInterval = 5
        public var maximumDelay: TimeInterval = 3600
        /// A message still undelivered this long after it was written is abandoned.
        public var deliveryWindow: TimeInterval = 24 * 3600
        public var requestTimeout: TimeInterval = 10
        public var batchSize = 50
        /// How long one pass holds the messages it took: other instances leave them alone until then,
        /// and take them over after (this instance died or hangs).
        public var leaseDuration: TimeInterval = 60

        public init() {}
    }

    let provider: AppleIDProvider
    let sender: any NotificationSender
    let policy: Policy
    let logger: Logger
    /// This instance's name on the leases it takes.
    let leaseHolder: String

    public init(
        provider: AppleIDProvider, sender: any NotificationSender, policy: Policy = Policy(), logger: Logger, leaseHolder: String? = nil
    ) {
        self.provider = provider
        self.sender = sender
        self.policy = policy
        self.logger = logger
        self.leaseHolder = leaseHolder ?? "instance-" + provider.random.string(length: 16, alphabet: "0123456789abcdef")
    }

    /// One pass: leases the messages due now, delivers them, hands the leases back; returns how many
    /// were attempted. With several instances, each message is in one instance's pass at a time.
    @discardableResult
    public func deliverDueMessages() async throws -> Int {
        let now = provider.clock.now()
        let expiry = now.addingTimeInterval(policy.leaseDuration)
        let leased = try await provider.store.leaseDueMessages(at: now, holder: leaseHolder, until: expiry, limit: policy.batchSize)
        guard !leased.isEmpty else { return 0 }
        var attempted = 0
        do {
            // A message whose lease could run out during its request waits for the next pass, since
            // another instance may take it over from then on.
            for message in leased where provider.clock.now().addingTimeInterval(policy.requestTimeout) < expiry {
                try await deliver(message)
                attempted += 1
            }
        } catch {
            try? await releaseLeases()
            throw error
        }
        try await releaseLeases()
        return attempted
    }

    /// Hands back every lease this instance holds, so that another instance delivers those messages
    /// without waiting for the leases to run out (graceful shutdown).
    public func releaseLeases() async throws {
        try await provider.store.releaseLeases(holder: leaseHolder)
    }

    private func deliver(_ message: OutboxMessage) async throws {
        let started = provider.clock.now()
        var next = message
        next.attempts += 1
        let endpoint = try await provider.store.appGroup(message.groupID)?.notificationEndpoint
        var status: Int?
        var failure: String?
        let began = ContinuousClock.now
        if let endpoint {
            do {
                let body = try Self.requestBody(for: message, provider: provider)
                status = try await sender.post(body, to: endpoint, timeout: policy.requestTimeout)
                if let status, !(200..<300).contains(status) { failure = "the endpoint answered \(status)" }
            } catch {
                failure = "\(error)"
            }
        } else {
            failure = "no notification endpoint is registered for \(message.groupID)"
        }
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
            messageID: message.id, attemptedAt: started, status: status, latencyMilliseconds: latency, error: failure,
            endpoint: endpoint ?? "")
        try await provider.store.record(attempt, updating: next)
        let outcome = next.deliveredAt != nil ? "delivered" : next.abandonedAt != nil ? "abandoned" : "retry"
        Counter(label: "siwa_notification_delivery_attempts_total", dimensions: [("outcome", outcome)], factory: provider.metrics).increment()
        logger.info(
            "notification delivery attempt",
            metadata: [
                "jti": "\(message.id)", "type": "\(message.event.type.rawValue)", "aud": "\(message.audience)", "attempt": "\(next.attempts)",
                "status": "\(status.map(String.init) ?? "-")", "latency_ms": "\(latency)", "error": "\(failure ?? "-")",
                "outcome": "\(next.deliveredAt != nil ? "delivered" : next.abandonedAt != nil ? "abandoned" : "retry")",
            ])
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

/// How a notification reaches the app's endpoint; returns the HTTP status.
public protocol NotificationSender: Sendable {
    func post(_ body: [UInt8], to url: String, timeout: TimeInterval) async throws -> Int
}

/// ``NotificationSender`` over AsyncHTTPClient.
public struct HTTPNotificationSender: NotificationSender {
    let client: HTTPClient

    public init(client: HTTPClient = .shared) { self.client = client }

    public func post(_ body: [UInt8], to url: String, timeout: TimeInterval) async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "AppleIDServer-Notifications/1.0")
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
        _ = try await response.body.collect(upTo: 64 * 1024)
        return Int(response.status.code)
    }
}
