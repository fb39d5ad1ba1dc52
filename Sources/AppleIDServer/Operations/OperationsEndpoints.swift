import AppleIDProtocol
import AppleIDProvider
import CoreMetrics
import Crypto
import Foundation
import Hummingbird
import Prometheus

/// What operators watch: `/health/live` (the process answers), `/health/ready` (the database answers
/// within two seconds and a signing key is loaded: 503 otherwise), and `/metrics` in Prometheus text
/// format, behind the admin token like every other operator surface (scrape it with
/// `authorization: {credentials: <admin token>}`).
struct OperationsEndpoints {
    let provider: AppleIDProvider
    let registry: PrometheusCollectorRegistry
    let adminToken: String
    /// How long readiness waits for the database.
    static let readinessTimeout: Duration = .seconds(2)

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/health/live") { _, _ in Self.json(status: .ok, ["status": "live"]) }
        router.get("/health/ready") { _, _ in
            let problem = await readinessProblem()
            let status = problem == nil ? "ready" : "not ready"
            return Self.json(status: problem == nil ? .ok : .serviceUnavailable, ["status": status, "problem": problem])
        }
        router.group("/metrics")
            .add(middleware: AdminTokenMiddleware(tokenDigest: SHA256.hash(data: Array(adminToken.utf8))))
            .get { _, _ in
                await sampleStoreGauges()
                var headers = HTTPFields()
                headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
                headers[.cacheControl] = "no-store"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
            }
    }

    /// `nil` when ready; otherwise what is wrong, in words.
    private func readinessProblem() async -> String? {
        guard !provider.keyRing.publishedKeyIDs.isEmpty else { return "no signing key is loaded" }
        let provider = provider
        let answered = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    try await provider.checkStoreAnswers()
                    return true
                } catch {
                    return false
                }
            }
            group.addTask {
                try? await Task.sleep(for: Self.readinessTimeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        return answered ? nil : "the database did not answer (an error, or no answer within \(Self.readinessTimeout))"
    }

    /// Gauges read from the store at scrape time: the notification outbox's depth and the age of the
    /// key that signs.
    private func sampleStoreGauges() async {
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
