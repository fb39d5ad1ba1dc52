import Foundation

extension AppChecker {
    /// Where the app must read the discovery document to be shown the issuer flip: its own variant,
    /// `?client_id=`, which Apple answers as the plain document and this server as the client's day.
    func discoveryURL(clientID: String) -> String {
        let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return options.server + "/.well-known/openid-configuration?client_id="
            + (clientID.addingPercentEncoding(withAllowedCharacters: unreserved) ?? clientID)
    }

    /// 2025-06-11: Apple's discovery document names the issuer `https://account.apple.com` while its
    /// id_tokens keep `https://appleid.apple.com`. Before: `callback.baseline`, with the document naming the
    /// tokens' issuer. Since: the client speaks as of that day, so its own discovery document (and no
    /// other client's) names Apple's account issuer, and the app signs in again. Apple's document says so
    /// today: an app that refuses this breaks on today's traffic (required).
    func issuerFlipDrift(clientID: String) async throws -> CheckResult {
        let signedIn = try await withDay(Self.firstDayOfAccountIssuer, clientID: clientID) { try await signsIn() }
        let shown =
            "with the discovery document of \(discoveryURL(clientID: clientID)) naming the issuer https://account.apple.com (Apple since 2025-06-11) while the tokens kept theirs"
        guard signedIn else {
            guard try await signsIn() else {
                return CheckResult(.driftIssuerFlip, .notRun, "not run: the app signs the victim in neither with the flipped document nor without it")
            }
            return CheckClassRules.drift(
                .driftIssuerFlip, failedToday: "\(shown), the sign-in failed: the app takes the expected iss from the discovery document")
        }
        return CheckResult(
            .driftIssuerFlip, .passed,
            "\(shown), the app signed in (an app that reads discovery elsewhere than this URL was not shown the flip)")
    }
}
