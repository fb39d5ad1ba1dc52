import AppleIDProtocol
import AppleIDProvider
import CoreMetrics
import Foundation
import Hummingbird

/// What operators watch: `/health/live` (the process answers), `/health/ready` (the database answers
/// within two seconds and a signing key is loaded: 503 otherwise). `siwa serve` adds `/metrics`
/// (AppleIDServerApp's `MetricsEndpoint`).
package struct OperationsEndpoints {
    let provider: AppleIDProvider

    package init(provider: AppleIDProvider) {
        self.provider = provider
    }
    /// How long readiness waits for the database.
    static let readinessTimeout: Duration = .seconds(2)

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/health/live") { _, _ in Self.json(status: .ok, ["status": "live"]) }
        router.get("/health/ready") { _, _ in
            let problem = await readinessProblem()
            let status = problem == nil ? "ready" : "not ready"
            return Self.json(status: problem == nil ? .ok : .serviceUnavailable, ["status": status, "problem": problem])
        }
    }

    /// `nil` when ready; otherwise what is wrong, in words.
    private func readinessProblem() async -> String? {
        guard !provider.keyRing.publishedKeyIDs.isEmpty else { return "no signing key is loaded" }
        let provider = provider
        let answered = await FirstAnswer.within(Self.readinessTimeout, otherwise: false) {
            do {
                try await provider.checkStoreAnswers()
                return true
            } catch {
                return false
            }
        }
        return answered ? nil : "the database did not answer (an error, or no answer within \(Self.readinessTimeout))"
    }

    /// Gauges read from the store at scrape time: the notification outbox's depth and the age of the
    /// key that signs (`/metrics` samples them before it answers).
    package func sampleStoreGauges() async {
        if let pending = try? await provider.pendingNotificationCount() {
            Gauge(label: "siwa_outbox_pending_messages", factory: provider.metrics).record(pending)
        }
        if let age = try? await provider.activeSigningKeyAge() {
            Gauge(label: "siwa_signing_key_age_seconds", factory: provider.metrics).record(age)
        }
    }

    private static func json(status: HTTPResponse.Status, _ fields: [String: String?]) -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: fields.compactMapValues { $0 }, options: [.sortedKeys])) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
