import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import NIOCore
import NIOPosix
import SignInWithApple
import SignInWithAppleTesting
import SignInWithAppleVapor
import SiwaCheck
import Synchronization
import Testing
import Vapor

/// The proof of issue 20 on the kit's Vapor routes: a minimal app (the route collection, a session
/// cookie, a probe, notifications, an account deletion that revokes) passes every `siwa check` check.
@Suite("Vapor routes: siwa check passes a minimal app", .timeLimit(.minutes(5)))
struct VaporSiwaCheckTests {
    /// The app's state: who each session cookie signed in, with the grant to revoke on deletion.
    final class Sessions: Sendable {
        struct Session: Sendable {
            var subject: String
            var grant: AppleGrant?
        }
        let all = Mutex<[String: Session]>([:])

        func session(_ request: Request) -> (String, Session)? {
            guard let id = request.cookies["sid"]?.string, let session = all.withLock({ $0[id] }) else { return nil }
            return (id, session)
        }
    }

    static func configure(_ app: Application, client: SignInWithAppleClient, sessions: Sessions) throws {
        let routes = SignInWithAppleRouteCollection(
            client: client,
            onSignIn: { result, _ in
                let id = UUID().uuidString
                sessions.all.withLock { $0[id] = .init(subject: result.identity.subject, grant: result.grant) }
                let response = Response(status: .seeOther, headers: ["Location": "/me"])
                response.cookies["sid"] = HTTPCookies.Value(string: id, isHTTPOnly: true, sameSite: .lax)
                return response
            },
            onNotification: { notification, _ in
                for event in notification.events where event.type == .consentRevoked || event.type.isAccountDeletion {
                    sessions.all.withLock { all in all = all.filter { $0.value.subject != event.subject } }
                }
            })
        try app.register(collection: routes)
        app.get("me") { request -> Response in
            guard let (_, session) = sessions.session(request) else { return Response(status: .unauthorized) }
            return Response(status: .ok, body: .init(string: "signed in as \(session.subject)"))
        }
        app.post("delete") { request -> Response in
            guard let (id, session) = sessions.session(request) else { return Response(status: .unauthorized) }
            // Apple asks apps to revoke when the user deletes the account.
            if let grant = session.grant { try await client.revoke(grant) }
            _ = sessions.all.withLock { $0.removeValue(forKey: id) }
            return Response(status: .seeOther, headers: ["Location": "/"])
        }
    }

    @Test("every check passes, notifications and deletion included")
    func passesEveryCheck() async throws {
        let results = try await withAppleIDEmulator { apple in
            try await apple.createUser(appleID: "attacker@example.com", firstName: "Eve", lastName: "Attacker")
            let school = try await apple.createOrganization()
            try await apple.createManagedUser(username: "s.student@appleid.school.example.edu", in: school)
            // The app's clock runs ahead by what the check waits: drift.key-rotation waits out the key set's refetch cooldown.
            let ahead = Mutex<Double>(0)
            let (app, base) = try await Self.startApp(apple: apple, clock: { Date().addingTimeInterval(ahead.withLock { $0 }) })
            var options = CheckOptions(
                start: base + "/auth/apple", probe: base + "/me", server: apple.baseURL, adminToken: apple.adminToken,
                victim: apple.defaultUser.appleID, attacker: "attacker@example.com")
            options.notifications = base + "/auth/apple/notifications"
            options.delete = base + "/delete"
            options.timeoutDelay = 10
            let results = await AppChecker(options: options, wait: { seconds in ahead.withLock { $0 += seconds } }).run()
            await app.server.shutdown()
            try await app.asyncShutdown()
            return results
        }
        let failed = results.filter { $0.outcome == .failed }
        #expect(failed.isEmpty, "\(failed.map { "\($0.check.rawValue): \($0.detail)" })")
        #expect(results.filter { $0.outcome != .passed }.map(\.check) == [])
    }

    /// The app on a port the kernel just handed out, named in its Return URL before it listens. Under
    /// CI's load another test's bind to port 0 can take that port in between (`EADDRINUSE`): then the app
    /// starts again on another, as the emulator does.
    static func startApp(
        apple: AppleIDEmulator, clock: @escaping @Sendable () -> Date, port nextPort: () async throws -> Int = { try await freePort() }
    ) async throws -> (Application, String) {
        for attempt in 1...5 {
            let port = try await nextPort()
            let base = "http://127.0.0.1:\(port)"
            var configuration = apple.clientConfiguration()
            configuration.web?.redirectURI = base + "/auth/apple/callback"
            try await apple.addReturnURL(base + "/auth/apple/callback")
            // A token deadline shorter than token.timeout's silence (10 s): the app must give up first.
            let client = try SignInWithAppleClient(
                configuration: configuration, transport: AsyncHTTPClientTransport(timeout: .seconds(5)), storage: MemorySignInWithAppleStorage(),
                clock: clock)
            let app = try await Application.make(.testing)
            do {
                try Self.configure(app, client: client, sessions: Sessions())
                try await app.server.start(address: .hostname("127.0.0.1", port: port))
                return (app, base)
            } catch let error as IOError where error.errnoCode == EADDRINUSE && attempt < 5 {
                await app.server.shutdown()
                try? await app.asyncShutdown()
            } catch {
                await app.server.shutdown()
                try? await app.asyncShutdown()
                throw error
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    @Test("a port taken before the app listens: the app starts again on the next one, named in its Return URL")
    func takenPortRetried() async throws {
        let taken = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let takenPort = try #require(taken.localAddress?.port)
        let offered = Mutex(0)
        let base = try await withAppleIDEmulator { apple in
            let (app, base) = try await Self.startApp(apple: apple, clock: { Date() }) {
                // The first port offered is taken (as another test's bind can take it); the next is free.
                let count = offered.withLock { count in
                    count += 1
                    return count
                }
                return count == 1 ? takenPort : try await Self.freePort()
            }
            await app.server.shutdown()
            try await app.asyncShutdown()
            return base
        }
        try await taken.close()
        #expect(offered.withLock { $0 } == 2, "one retry")
        #expect(base != "http://127.0.0.1:\(takenPort)")
    }

    /// A port the kernel just handed out on 127.0.0.1: the Return URL names it before the app listens.
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        defer { channel.close(promise: nil) }
        return channel.localAddress?.port ?? 0
    }
}
