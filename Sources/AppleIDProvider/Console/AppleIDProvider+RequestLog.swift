import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// Records a request for the console's Requests page: only for registered clients (an unknown
    /// `client_id` could otherwise fill the log), with the refusal's reason, which names rules and safe
    /// values only. The entry is written with others in a batch (``RequestLogBuffer``); a failure to
    /// write never fails a request.
    func logRequest(_ endpoint: RequestLogEntry.Endpoint, clientID rawClientID: String?, refusal: OAuthError?) async {
        guard let rawClientID, !rawClientID.isEmpty, rawClientID.count <= 255 else { return }
        let now = clock.now()
        do {
            guard try await registryCache.client(ClientID(rawValue: rawClientID), now: now) != nil else { return }
            let entry = RequestLogEntry(
                clientID: ClientID(rawValue: rawClientID), endpoint: endpoint, at: now, outcome: refusal?.code.rawValue ?? "ok",
                reason: refusal?.reason ?? "")
            if requestLogBuffer.append(entry) { await flushRequestLog() }
        } catch {
            logger.warning("request not logged", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }

    /// Writes the request-log entries recorded since the last flush, in one batch. Entries that cannot
    /// be written (the database is down) are dropped with a warning: they are diagnostics, and keeping
    /// them would let an outage grow the buffer without bound.
    public func flushRequestLog() async {
        let entries = requestLogBuffer.drain()
        guard !entries.isEmpty else { return }
        do {
            try await store.record(entries, keepingLast: configuration.requestLogLength)
        } catch {
            logger.warning(
                "request log not written", metadata: ["entries": "\(entries.count)", "error": "\(String(reflecting: type(of: error)))"])
        }
    }

    /// The client's last requests, newest first, if the client belongs to `teamID`.
    public func requestLog(clientID: ClientID, teamID: TeamID) async throws -> [RequestLogEntry] {
        guard let client = try await store.client(clientID), client.teamID == teamID else {
            throw ConsoleError.notFound("There is no identifier \(clientID) in this team.")
        }
        await flushRequestLog()
        return try await store.requestLog(clientID: client.id, limit: configuration.requestLogLength)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
