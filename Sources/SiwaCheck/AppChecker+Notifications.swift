import AsyncHTTPClient
import Foundation
import NIOCore

extension AppChecker {
    static let notificationChecks = CheckID.allCases.filter { $0.rawValue.hasPrefix("notify.") }

    /// Notifications (spec §10): a genuine `consent-revoked` for the signed-in victim must end the
    /// probe's session; each forgery must be refused with the session intact. A browser whose session a
    /// forgery wrongly ended is replaced by a fresh sign-in, so one flaw does not mask the next.
    func checkNotifications(to endpoint: String, clientID: String) async -> [CheckResult] {
        var results: [CheckResult] = []
        do {
            progress(CheckID.notifyBaseline.rawValue)
            var browser = try await signedInBrowser()
            let genuine = try await admin.notification(for: options.victim, clientID: clientID)
            let status = try await deliver(genuine, to: endpoint)
            guard try await !isSignedIn(browser).0 else {
                results.append(
                    CheckResult(
                        .notifyBaseline, .failed, "a genuine consent-revoked for the signed-in user (answered \(status)) left the session signed in"))
                return results + Self.notificationChecks.dropFirst().map { .notRun($0, because: .notifyBaseline) }
            }
            results.append(CheckResult(.notifyBaseline, .passed, "a genuine consent-revoked (answered \(status)) ended the session"))
            for check in Self.notificationChecks.dropFirst() {
                progress(check.rawValue)
                if try await !isSignedIn(browser).0 { browser = try await signedInBrowser() }
                let forged = try await forgery(check, replaying: genuine, clientID: clientID)
                let answer = try await deliver(forged, to: endpoint)
                results.append(
                    try await isSignedIn(browser).0
                        ? CheckResult(check, .passed, "refused (answered \(answer)); the session went on")
                        : CheckResult(check, .failed, "accepted (answered \(answer)): the notification ended the session"))
            }
        } catch {
            let done = Set(results.map(\.check))
            results += Self.notificationChecks.filter { !done.contains($0) }.map {
                CheckResult($0, .failed, "the check could not complete: \(error)")
            }
        }
        return results
    }

    /// The notification each attack delivers: the server spoils `aud` or `exp` under its own key; the
    /// checker forges the rest from a genuine one it never delivered (or re-sends the delivered one).
    func forgery(_ check: CheckID, replaying delivered: String, clientID: String) async throws -> String {
        switch check {
        case .notifyWrongAudience: return try await admin.notification(for: options.victim, clientID: clientID, fault: "wrong-aud")
        case .notifyExpired: return try await admin.notification(for: options.victim, clientID: clientID, fault: "expired")
        case .notifyReplay: return delivered
        default: break
        }
        let fresh = try ForgedNotification(genuine: try await admin.notification(for: options.victim, clientID: clientID))
        switch check {
        case .notifyUnknownKey: return try fresh.signedByUnknownKey()
        case .notifyAlgNone: return fresh.unsigned()
        default: return try fresh.tampered()
        }
    }

    /// POSTs `{"payload": jwt}` as the server's delivery does (JSON, no cookies); answers the status.
    func deliver(_ jwt: String, to endpoint: String) async throws -> Int {
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(["payload": jwt])))
        let response = try await client.execute(request, timeout: TimeAmountSeconds.amount(options.requestTimeout))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    /// A new browser signed in as the victim (the genuine sign-in of the baseline).
    func signedInBrowser() async throws -> SimulatedBrowser {
        let (attempt, fields) = try await approvedAttempt(as: options.victim)
        _ = try await attempt.callback(fields)
        guard try await isSignedIn(attempt.browser).0 else { throw NotSignedIn() }
        return attempt.browser
    }

    struct NotSignedIn: Error, CustomStringConvertible {
        var description: String { "a genuine sign-in did not sign in" }
    }
}
