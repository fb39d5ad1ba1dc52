import AsyncHTTPClient
import Foundation

/// Runs every check against one app (issue 20): signs in as browsers would, attacks each step, and
/// says what the app wrongly accepted.
public struct AppChecker: Sendable {
    let options: CheckOptions
    let client: HTTPClient
    let admin: ServerAdmin
    let progress: @Sendable (String) -> Void
    /// Waits this many seconds (`drift.key-rotation`'s wait for an app's refetch cooldown); injected by tests.
    let wait: @Sendable (Double) async throws -> Void

    /// A browser follows redirects itself (to read where the app sends it): this client never does.
    /// Process-wide and never shut down, like `HTTPClient.shared`.
    public static let browserClient = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    public init(
        options: CheckOptions, client: HTTPClient = AppChecker.browserClient, progress: @escaping @Sendable (String) -> Void = { _ in },
        wait: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .milliseconds(Int64($0 * 1000))) }
    ) {
        self.options = options
        self.client = client
        self.admin = ServerAdmin(baseURL: options.server, token: options.adminToken, client: client)
        self.progress = progress
        self.wait = wait
    }

    /// Every check, in the order of the issue; never "passed" for a check that did not run. Each
    /// result's class is its check's, unless a rule of the run says otherwise (`CheckClassRules`).
    public func run() async -> [CheckResult] { CheckClassRules.apply(to: await runChecks()) }

    func runChecks() async -> [CheckResult] {
        var results: [CheckResult] = []
        progress("request")
        let request = await checkRequest()
        results += request.results
        guard let clientID = request.clientID else {
            return results + CheckID.allCases.dropFirst(results.count).map { .notRun($0, because: .requestState) }
        }
        progress("callback.baseline")
        let baseline = await checkBaseline()
        results.append(baseline)
        let dependent = CheckID.allCases.filter {
            $0.rawValue.hasPrefix("callback.") || $0.rawValue.hasPrefix("token.") || $0.rawValue.hasPrefix("trust.")
        }
        .filter { $0 != .callbackBaseline }
        guard baseline.outcome == .passed else {
            // Every check after the baseline stands on it.
            return results + CheckID.allCases.drop { $0 != .callbackBaseline }.dropFirst().map { .notRun($0, because: .callbackBaseline) }
        }
        for check in dependent {
            progress(check.rawValue)
            results.append(await run(check, clientID: clientID))
        }
        if options.probe.isEmpty {
            // Without a probe, only the callback's page tells: a session the app ended later cannot be seen.
            results += Self.notificationChecks.map {
                CheckResult($0, .notRun, "not run: a session ended by a notification shows only through --probe")
            }
        } else if let endpoint = options.notifications {
            results += await checkNotifications(to: endpoint, clientID: clientID)
        } else {
            results += Self.notificationChecks.map { CheckResult($0, .notRun, "not run: no --notifications URL given") }
        }
        // Then: deleting the account revokes the victim's consent, and the next sign-in is a first one.
        if let url = options.delete {
            let revoke = await checkDeletion(at: url, clientID: clientID)
            results += [revoke, await checkSignInAfterDeletion(revoke: revoke)]
        } else {
            results += Self.deletionChecks.map { CheckResult($0, .notRun, "not run: no --delete URL given") }
        }
        // Last: the drift checks change the server's traffic (a rotated key stays rotated).
        return results + (await checkDrift(clientID: clientID, earlier: results))
    }

    // MARK: Browsers

    func newBrowser() -> SimulatedBrowser { SimulatedBrowser(client: client, timeout: TimeAmountSeconds.amount(options.requestTimeout)) }

    /// Whether the probe answers 2xx in `browser` (redirects are not followed: a redirect to a login page is "no").
    func isSignedIn(_ browser: SimulatedBrowser) async throws -> (Bool, String) {
        if let test = options.signedInWhen, options.probe.isEmpty {
            return (test.isSignedIn(browser, app: options.start), browser.lastPage?.body ?? "")
        }
        let page = try await browser.get(options.probe) { _ in false }
        return ((200..<300).contains(page.status), page.body)
    }

    /// A start in a new browser, approved as `appleID`.
    func approvedAttempt(as appleID: String) async throws -> (SignInAttempt, [(String, String)]) {
        let attempt = try await SignInAttempt.start(in: newBrowser(), options: options)
        let answer = try await admin.approve(attempt.request, as: appleID)
        return (attempt, Self.callbackFields(answer))
    }

    /// The callback's fields in a stable order (the server's answer is a dictionary).
    static func callbackFields(_ answer: [String: String]) -> [(String, String)] {
        ["code", "id_token", "state", "user", "error"].compactMap { name in answer[name].map { (name, $0) } }
    }
}
