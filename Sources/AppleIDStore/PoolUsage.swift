import CoreMetrics
import Synchronization

/// Counts what the pool is doing, for `/metrics`: connections leased, requests waiting for one,
/// and the requests that gave up because the database was unavailable.
final class PoolUsage: Sendable {
    private struct Counts {
        var inUse = 0
        var waiting = 0
    }

    private let counts = Mutex(Counts())
    private let inUseGauge: Gauge
    private let waitingGauge: Gauge
    private let unavailable: Counter

    init(maximumConnections: Int, metrics: any MetricsFactory) {
        inUseGauge = Gauge(label: "siwa_db_pool_connections_in_use", factory: metrics)
        waitingGauge = Gauge(label: "siwa_db_pool_waiting_requests", factory: metrics)
        unavailable = Counter(label: "siwa_db_unavailable_total", factory: metrics)
        Gauge(label: "siwa_db_pool_max_connections", factory: metrics).record(maximumConnections)
    }

    func startedWaiting() { update { $0.waiting += 1 } }

    func leased() {
        update {
            $0.waiting -= 1
            $0.inUse += 1
        }
    }

    func gaveUpWaiting() { update { $0.waiting -= 1 } }

    func released() { update { $0.inUse -= 1 } }

    func recordUnavailable() { unavailable.increment() }

    private func update(_ change: (inout Counts) -> Void) {
        // Recorded under the lock, so the gauges never go back to an older value.
        counts.withLock { counts in
            change(&counts)
            inUseGauge.record(counts.inUse)
            waitingGauge.record(counts.waiting)
        }
    }
}
