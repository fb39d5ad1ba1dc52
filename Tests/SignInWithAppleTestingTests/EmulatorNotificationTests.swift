import AppleIDConsole
import AppleIDProvider
import Foundation
import Logging
import Synchronization
import Testing

@testable import SignInWithAppleTesting

/// The emulator hands out notifications through the engine's delivery policy, like the server.
@Suite("The emulator delivers notifications by the engine's policy", .timeLimit(.minutes(5)))
struct EmulatorNotificationTests {
    @Test("a notification another delivery pass is sending is not handed out by the emulator as well")
    func leasedMessageIsNotTakenTwice() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            _ = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
            try await apple.stopUsing(appleID: apple.defaultUser.appleID)
            _ = try await apple.provider.setNotificationEndpoint(
                "https://app.example.com/apple/notifications", groupID: .init(rawValue: apple.bundleID), teamID: nil)
            let sender = HeldSender()
            let other = NotificationDelivery(provider: apple.provider, sender: sender, logger: Logger(label: "test"), leaseHolder: "other")
            async let otherPass = other.deliverDueMessages()
            await sender.waitForPost()
            // The other pass holds the message's lease and is waiting on the endpoint's answer.
            let taken = try await apple.deliveredNotifications()
            sender.answer(200)
            #expect(try await otherPass == 1)
            #expect(taken.isEmpty)
            #expect(try await apple.deliveredNotifications().isEmpty)
        }
    }

    @Test("the emulator hands out every queued notification once, oldest first, and records them delivered")
    func deliveredOnceInOrder() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let hidden = ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: true)
            _ = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa, choices: hidden)
            try await apple.setEmailForwarding(false, for: apple.defaultUser.appleID)
            try await apple.stopUsing(appleID: apple.defaultUser.appleID)
            let delivered = try await apple.deliveredNotifications()
            #expect(delivered.map(\.type) == ["email-disabled", "consent-revoked"])
            #expect(try await apple.deliveredNotifications().isEmpty)
            let log = try await apple.provider.console(team: .init(rawValue: apple.teamID)).deliveries(groupID: .init(rawValue: apple.bundleID))
            #expect(log.map { $0.0.deliveredAt != nil } == [true, true])
            #expect(log.map { $0.1.map(\.status) } == [[200], [200]])
        }
    }
}

/// A notification endpoint that answers only when the test says so.
private final class HeldSender: NotificationSender, Sendable {
    private let posted = AsyncStream<Void>.makeStream()
    private let answers = AsyncStream<Int>.makeStream()

    func post(_ body: [UInt8], to destination: NotificationDestination, timeout: TimeInterval) async throws -> Int {
        posted.continuation.yield()
        for await status in answers.stream { return status }
        return 503
    }

    func waitForPost() async {
        for await _ in posted.stream { return }
    }

    func answer(_ status: Int) { answers.continuation.yield(status) }
}
