import AppleIDProtocol
import AppleIDProvider
import Crypto
import Foundation

/// The playground's memory of each browser's runs: the `state` and nonce of a started sign-in (ten
/// minutes, single use), and the refresh token a completed run obtained (an hour). Refresh and
/// revoke act only on a run of the browser that asks (its `siwa_playground` cookie), so the
/// playground is no anonymous relying party for the demo Services ID: it never acts on a token
/// someone pastes in.
///
/// Kept in the engine's ``BrowserFlows``, so a run started on one server instance is finished,
/// refreshed or revoked on another. The store holds hashes of the `state`, the run identifier and
/// the browser cookie, and the refresh token sealed with a key derived from the browser cookie: the
/// database alone cannot act on a run.
struct PlaygroundRuns: Sendable {
    let starts: BrowserFlows
    let completed: BrowserFlows
    var startLifetime: TimeInterval = 600
    var runLifetime: TimeInterval = 3_600

    init(provider: AppleIDProvider) {
        starts = provider.browserFlows(.playgroundStart)
        completed = provider.browserFlows(.playgroundRun)
    }

    private struct Started: Codable {
        var browserHash: String
        var nonce: String
    }

    private struct Completed: Codable {
        var browserHash: String
        /// AES-GCM (nonce, ciphertext, tag), base64, under ``runKey(browser:)``.
        var sealedRefreshToken: String
    }

    func start(state: String, nonce: String, browser: String, now: Date) async throws {
        let started = Started(browserHash: OpaqueToken.hash(browser), nonce: nonce)
        try await starts.save(try Self.json(started), secret: state, expiresAt: now.addingTimeInterval(startLifetime))
    }

    /// The nonce of this browser's sign-in with `state`, once (a `state` from another browser is used
    /// up as well: it was shown to someone else).
    func takeNonce(state: String, browser: String?, now: Date) async throws -> String? {
        guard let browser, let payload = try await starts.take(secret: state, now: now),
            let started = Self.decode(Started.self, payload), ConstantTime.equal(started.browserHash, OpaqueToken.hash(browser))
        else { return nil }
        return started.nonce
    }

    /// Keeps the refresh token of a completed run under the run's identifier (the page's forms name it).
    func complete(refreshToken: String, browser: String, run: String, now: Date) async throws {
        let sealed = try AES.GCM.seal(Array(refreshToken.utf8), using: Self.runKey(browser: browser)).combined ?? Data()
        let record = Completed(browserHash: OpaqueToken.hash(browser), sealedRefreshToken: sealed.base64EncodedString())
        try await completed.save(try Self.json(record), secret: run, expiresAt: now.addingTimeInterval(runLifetime))
    }

    /// The refresh token of this browser's run.
    func refreshToken(run: String, browser: String?, now: Date) async throws -> String? {
        guard let browser, let payload = try await completed.payload(secret: run, now: now),
            let record = Self.decode(Completed.self, payload), ConstantTime.equal(record.browserHash, OpaqueToken.hash(browser)),
            let combined = Data(base64Encoded: record.sealedRefreshToken),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let opened = try? AES.GCM.open(box, using: Self.runKey(browser: browser))
        else { return nil }
        return String(decoding: opened, as: UTF8.self)
    }

    func end(run: String) async throws { try await completed.remove(secret: run) }

    /// The key that seals a run's refresh token: only the browser holding the cookie can open it.
    private static func runKey(browser: String) -> SymmetricKey {
        SymmetricKey(data: SHA256.hash(data: Array(("playground-run-key:" + browser).utf8)))
    }

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, _ payload: String) -> Value? {
        try? JSONDecoder().decode(type, from: Data(payload.utf8))
    }
}

extension FlowRecord.Kind {
    /// A playground sign-in between `/playground` and its callback (by `state`).
    static let playgroundStart = FlowRecord.Kind(rawValue: "playground-start")
    /// A playground run that obtained a refresh token (by run identifier).
    static let playgroundRun = FlowRecord.Kind(rawValue: "playground-run")
}
