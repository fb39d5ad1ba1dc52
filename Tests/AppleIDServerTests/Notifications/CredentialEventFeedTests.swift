import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Credential-revoked feed: a long-poll over the group's revocations", .timeLimit(.minutes(5)))
struct CredentialEventFeedTests {
    struct Page: Decodable {
        struct Event: Decodable {
            var type: String
            var sub: String
            var cursor: String
        }
        var events: [Event]
        var cursor: String?
    }

    static func poll(_ client: some TestClientProtocol, after: String? = nil, wait: Int = 0) async throws -> (HTTPResponse.Status, Page?) {
        var uri = "/admin/credential-events?client_id=\(TestServer.bundleID.rawValue)&wait=\(wait)"
        if let after { uri += "&after=\(after)" }
        let response = try await client.execute(uri: uri, method: .get, headers: NativeCredentialTests.admin)
        return (response.status, try? JSONDecoder().decode(Page.self, from: Data(buffer: response.body)))
    }

    @Test("a waiting poll is answered by Stop using; the cursor skips what was seen; relay changes are not revocations")
    func longPoll() async throws {
        let (server, account, _) = try await TestServer.authorized()
        let subject = try #require(try await server.teamIdentity(of: account)).subject
        try await server.app.test(.router) { client in
            let (_, empty) = try await Self.poll(client)
            #expect(empty?.events.isEmpty == true)
            try await server.provider.lifecycle.setRelayForwarding(accountID: account.id, teamID: TestServer.teamID, enabled: false)
            let (_, relayOnly) = try await Self.poll(client)
            #expect(relayOnly?.events.isEmpty == true, "email-disabled does not revoke the credential")
            let start = try #require(relayOnly?.cursor)

            // The poll waits (up to 60 s) until the user stops using the app.
            async let waiting = Self.poll(client, after: start, wait: 60)
            server.clock.advance(by: 1)
            try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestServer.bundleID)
            let (status, page) = try await waiting
            #expect(status == .ok)
            #expect(page?.events.map(\.type) == ["consent-revoked"])
            #expect(page?.events.first?.sub == subject.rawValue)

            let (_, after) = try await Self.poll(client, after: try #require(page?.cursor))
            #expect(after?.events.isEmpty == true, "nothing new after the cursor")
            #expect(after?.cursor == page?.cursor)
            let (_, history) = try await Self.poll(client)
            #expect(history?.events.map(\.type) == ["consent-revoked"], "from the start, the feed has the whole history")
        }
    }

    @Test("bad requests: unknown client, foreign cursor, wait out of range, no admin token")
    func refusals() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let unknown = try await client.execute(
                uri: "/admin/credential-events?client_id=com.example.nobody", method: .get, headers: NativeCredentialTests.admin)
            #expect(unknown.status == .notFound)
            for query in ["after=nonsense", "wait=61", "wait=-1", "wait=soon"] {
                let bad = try await client.execute(
                    uri: "/admin/credential-events?client_id=com.example.juice&\(query)", method: .get, headers: NativeCredentialTests.admin)
                #expect(bad.status == .badRequest, "\(query)")
            }
            let anonymous = try await client.execute(uri: "/admin/credential-events?client_id=com.example.juice", method: .get)
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test("the signal wakes a waiter that started before it, and one that starts after it returns at once")
    func signal() async throws {
        let signal = CredentialEventSignal()
        let before = signal.generation
        signal.signal()
        await signal.wait(since: before, timeout: .seconds(600))
        let current = signal.generation
        async let waiter: Void = signal.wait(since: current, timeout: .seconds(600))
        signal.signal()
        await waiter
        #expect(signal.generation == current + 1)
    }
}
