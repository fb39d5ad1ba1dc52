import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// Records a request for the console's Requests page: only for registered clients (an unknown
    /// `client_id` could otherwise fill the log), with the refusal's reason, which names rules and safe
    /// values only. The entry is written with others in a batch (``RequestLogBuffer``); a failure to
    /// write never fails a request.
    func logRequest(_ endpoint: RequestLogEntry.Endpoint, clientID rawClientID: String?, refusal: OAuthError?, unverified: Bool = false) async {
        guard let rawClientID, !rawClientID.isEmpty, rawClientID.count <= 255 else { return }
        do {
            let client = try await registryCache.client(ClientID(rawValue: rawClientID), now: clock.now())
            await logRequest(endpoint, client: client, refusal: refusal, unverified: unverified)
        } catch {
            logger.warning("request not logged", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }

    /// Records a request whose client the endpoint has already looked up (`nil`: not registered, so
    /// nothing is recorded).
    func logRequest(_ endpoint: RequestLogEntry.Endpoint, client: RegisteredClient?, refusal: OAuthError?, unverified: Bool = false) async {
        guard let client else { return }
        let now = clock.now()
        let proven = !unverified && Self.isProven(endpoint, refusal: refusal)
        guard proven || unprovenRequestLimit.admit(client.id, now: now) else { return }
        let entry = RequestLogEntry(
            clientID: client.id, endpoint: endpoint, at: now, outcome: refusal?.code.rawValue ?? "ok", reason: refusal?.reason ?? "",
            isProven: proven)
        if requestLogBuffer.append(entry) { await flushRequestLog() }
    }

    /// Whether the request proved its client: on `/auth/authorize` a refusal that may go back to the
    /// `redirect_uri` (so the client and its Return URL are proven) or an answer; on `/auth/token` and
    /// `/auth/revoke` anything but `invalid_client` (the client secret verified).
    static func isProven(_ endpoint: RequestLogEntry.Endpoint, refusal: OAuthError?) -> Bool {
        guard let refusal else { return true }
        return endpoint == .authorize ? refusal.isRedirectable : refusal.code != .invalidClient
    }

    /// Writes the request-log entries recorded since the last flush, in one batch, and returns once
    /// the batches that other flushes took before it are written too: every entry recorded before the
    /// call is then in the store. Entries that cannot be written (the database is down) are dropped
    /// with a warning: they are diagnostics, and keeping them would let an outage grow the buffer
    /// without bound.
    public func flushRequestLog() async {
        if let batch = requestLogBuffer.drain() {
            do {
                try await store.record(batch.entries, keepingLast: configuration.requestLogLength)
            } catch {
                logger.warning(
                    "request log not written", metadata: ["entries": "\(batch.entries.count)", "error": "\(String(reflecting: type(of: error)))"])
            }
            requestLogBuffer.written(batch.number)
        }
        await requestLogBuffer.waitForBatchesDrainedSoFar()
    }

    /// The client's last proven and unproven requests, newest first, if the client belongs to `teamID`
    /// (nil: the operator's admin API, any team).
    public func requestLog(clientID: ClientID, teamID: TeamID?) async throws -> RequestLog {
        guard let client = try await store.client(clientID), teamID == nil || client.teamID == teamID else {
            throw ConsoleError.notFound("There is no identifier \(clientID) in this team.")
        }
        await flushRequestLog()
        return RequestLog(
            proven: try await store.requestLog(clientID: client.id, proven: true, limit: configuration.requestLogLength),
            unproven: try await store.requestLog(clientID: client.id, proven: false, limit: configuration.requestLogLength))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
