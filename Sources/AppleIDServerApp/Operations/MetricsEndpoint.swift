import AppleIDProvider
import AppleIDServer
import Crypto
import Hummingbird
import Prometheus
import ServiceLifecycle

/// `/metrics` in Prometheus text format, behind the admin token like every other operator surface
/// (scrape it with `authorization: {credentials: <admin token>}`). Only `siwa serve` adds it: the
/// emulator links no Prometheus.
struct MetricsEndpoint: ServerAddition {
    /// The registry the provider's metrics factory writes to.
    let registry: PrometheusCollectorRegistry
    let adminToken: String

    var services: [any Service] { [] }

    func register(on router: Router<AppleIDRequestContext>, provider: AppleIDProvider, pages: PageRenderer) {
        let registry = self.registry
        router.group("/metrics")
            .add(middleware: AdminTokenMiddleware(tokenDigest: SHA256.hash(data: Array(adminToken.utf8))))
            .get { _, _ in
                await OperationsEndpoints(provider: provider).sampleStoreGauges()
                var headers = HTTPFields()
                headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
                headers[.cacheControl] = "no-store"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
            }
    }
}
