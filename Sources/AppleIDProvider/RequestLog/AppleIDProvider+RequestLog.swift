import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// Records a request for the console's Requests page (to the ``RequestRecorder`` the engine was
    /// started with): only for registered clients (an unknown `client_id` could otherwise fill the log),
    /// with the refusal's reason, which names rules and safe values only. Never fails a request.
    func logRequest(_ endpoint: RequestLogEntry.Endpoint, clientID rawClientID: String?, refusal: OAuthError?, unverified: Bool = false) async {
        guard requestRecorder != nil, let rawClientID, !rawClientID.isEmpty, rawClientID.count <= 255 else { return }
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
        guard let client, let requestRecorder else { return }
        let proven = !unverified && Self.isProven(endpoint, refusal: refusal)
        await requestRecorder.record(
            RequestLogEntry(
                clientID: client.id, endpoint: endpoint, at: clock.now(), outcome: refusal?.code.rawValue ?? "ok",
                reason: refusal?.reason ?? "", isProven: proven))
    }

    /// Whether the request proved its client: on `/auth/authorize` a refusal that may go back to the
    /// `redirect_uri` (so the client and its Return URL are proven) or an answer; on `/auth/token` and
    /// `/auth/revoke` anything but `invalid_client` (the client secret verified).
    static func isProven(_ endpoint: RequestLogEntry.Endpoint, refusal: OAuthError?) -> Bool {
        guard let refusal else { return true }
        return endpoint == .authorize ? refusal.isRedirectable : refusal.code != .invalidClient
    }

    /// Returns once every request recorded before the call is written (`siwa serve` calls it every
    /// 250 ms and at shutdown; a reset calls it first). Nothing to do without a ``RequestRecorder``.
    public func flushRequestLog() async { await requestRecorder?.flush() }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
