import AppleIDProtocol
import AppleIDProvider
import Foundation
import Logging

/// The Requests page's log: the engine's ``RequestRecorder`` that keeps what it hears in the store,
/// one batch for many requests (``RequestLogBuffer``), the unproven ones rate-limited per client
/// (``UnprovenRequestLimit``), each client's last ``RequestLogSettings/length`` entries of each kind.
/// `siwa serve` starts the engine with one and flushes it every 250 ms and at shutdown.
public final class StoredRequestLog: RequestRecorder {
    let store: any RequestLogStore
    let length: Int
    let buffer: RequestLogBuffer
    let unprovenLimit: UnprovenRequestLimit
    let logger: Logger

    public init(store: any RequestLogStore, settings: RequestLogSettings = RequestLogSettings(), logger: Logger = Logger(label: "AppleIDProvider")) {
        self.store = store
        self.length = settings.length
        self.buffer = RequestLogBuffer(capacity: settings.batchLimit)
        self.unprovenLimit = UnprovenRequestLimit(perMinute: settings.unprovenPerMinute)
        self.logger = logger
    }

    /// Over the storage an engine is started with (the emulator's `.inMemory`), whose store keeps the log.
    public convenience init(storage: ProviderStorage, logger: Logger = Logger(label: "AppleIDProvider")) throws {
        guard let store = storage.store as? any RequestLogStore else { throw ConsoleStorageMissing() }
        self.init(store: store, logger: logger)
    }

    public func record(_ entry: RequestLogEntry) async {
        guard entry.isProven || unprovenLimit.admit(entry.clientID, now: entry.at) else { return }
        if buffer.append(entry) { await flush() }
    }

    /// Writes the entries recorded since the last flush, in one batch, and returns once the batches
    /// that other flushes took before it are written too: every entry recorded before the call is then
    /// in the store. Entries that cannot be written (the database is down) are dropped with a warning:
    /// they are diagnostics, and keeping them would let an outage grow the buffer without bound.
    public func flush() async {
        if let batch = buffer.drain() {
            do {
                try await store.record(batch.entries, keepingLast: length)
            } catch {
                logger.warning(
                    "request log not written", metadata: ["entries": "\(batch.entries.count)", "error": "\(String(reflecting: type(of: error)))"])
            }
            buffer.written(batch.number)
        }
        await buffer.waitForBatchesDrainedSoFar()
    }

    /// The client's last proven and unproven requests, newest first, every entry recorded so far included.
    func read(clientID: ClientID) async throws -> RequestLog {
        await flush()
        return RequestLog(
            proven: try await store.requestLog(clientID: clientID, proven: true, limit: length),
            unproven: try await store.requestLog(clientID: clientID, proven: false, limit: length))
    }
}

extension AppleIDProvider {
    /// The client's last proven and unproven requests, newest first, if the client belongs to `teamID`
    /// (nil: the operator's admin API, any team).
    public func requestLog(clientID: ClientID, teamID: TeamID?) async throws -> RequestLog {
        guard let client = try await registeredClient(clientID), teamID == nil || client.teamID == teamID else {
            throw ConsoleError.notFound("There is no identifier \(clientID) in this team.")
        }
        guard let log = requestRecorder as? StoredRequestLog else { throw RequestLogNotKept() }
        return try await log.read(clientID: client.id)
    }
}

/// The engine was started without a ``StoredRequestLog``: it keeps no request log to read.
public struct RequestLogNotKept: Error, Sendable, CustomStringConvertible {
    public var description: String { "this server keeps no request log" }
}

/// How much of the Requests page's log is kept, and how it is written.
public struct RequestLogSettings: Sendable, Hashable {
    /// Requests kept per client, proven and unproven apart.
    public var length = 50
    /// How many unproven requests (a secret that did not verify, a redirect_uri not registered) one
    /// instance records per client and minute: anyone who knows a client ID can send them.
    public var unprovenPerMinute = 10
    /// Entries held before they are written in one batch (``StoredRequestLog/flush()`` writes them
    /// sooner). 1 writes each request as it happens.
    public var batchLimit = 256

    public init() {}
}
