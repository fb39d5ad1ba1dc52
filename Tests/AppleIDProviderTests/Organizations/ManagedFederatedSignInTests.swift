import AppleIDProtocol
import AppleIDProvider
import Foundation
import Synchronization
import Testing

/// The password step of a Managed Apple ID handed to its organization's sign-in (spec §21:
/// "Federated sign-in is optional … a pluggable hook"), injected into the engine.
@Suite("Engine: an organization's own sign-in")
struct ManagedFederatedSignInTests {
    /// Accepts one password, refuses the rest, or cannot answer; remembers whom it was asked about.
    final class Authenticator: ManagedSignInAuthenticator {
        let password: String
        let asked = Mutex<[String]>([])
        let isDown = Mutex(false)
        init(accepting password: String) { self.password = password }

        func checkPassword(_ password: String, of account: AppleIDAccount, in organization: Organization) async -> ManagedPasswordVerdict {
            asked.withLock { $0.append(account.appleID) }
            if isDown.withLock({ $0 }) { return .unavailable }
            return password == self.password ? .accepted : .refused
        }
    }

    static func harness(_ authenticator: Authenticator) async throws -> ManagedHarness {
        try await ManagedHarness.make(managedSignIn: authenticator)
    }

    @Test("a Managed Apple ID's password is checked by the organization's authenticator, not against the stored one")
    func authenticatorDecides() async throws {
        let authenticator = Authenticator(accepting: "from the IdP")
        let managed = try await Self.harness(authenticator)
        let interactions = managed.harness.provider.interactions
        guard case .passed = try await interactions.accountForSignIn(appleID: managed.student.appleID, password: "from the IdP") else {
            Issue.record("the organization accepted the password, the sign-in did not")
            return
        }
        guard case .incorrect = try await interactions.accountForSignIn(appleID: managed.student.appleID, password: "pw") else {
            Issue.record("the stored password passed although the organization refused it")
            return
        }
        #expect(authenticator.asked.withLock { $0 } == [managed.student.appleID, managed.student.appleID])
    }

    @Test("a consumer Apple ID never reaches the organization's authenticator")
    func consumerUnaffected() async throws {
        let authenticator = Authenticator(accepting: "any")
        let managed = try await Self.harness(authenticator)
        guard case .incorrect = try await managed.harness.provider.interactions.accountForSignIn(appleID: "Maria@Example.com", password: "any")
        else {
            Issue.record("a consumer Apple ID signed in with a wrong password")
            return
        }
        #expect(authenticator.asked.withLock { $0 }.isEmpty)
    }

    @Test("an authenticator that cannot answer fails closed, and its failures do not lock the Apple ID")
    func unavailableFailsClosed() async throws {
        let authenticator = Authenticator(accepting: "from the IdP")
        let managed = try await Self.harness(authenticator)
        let interactions = managed.harness.provider.interactions
        authenticator.isDown.withLock { $0 = true }
        for _ in 0...managed.harness.provider.configuration.signInLock.backoffFrom {
            await #expect(throws: ManagedSignInUnavailable.self) {
                _ = try await interactions.accountForSignIn(appleID: managed.student.appleID, password: "from the IdP")
            }
        }
        authenticator.isDown.withLock { $0 = false }
        guard case .passed = try await interactions.accountForSignIn(appleID: managed.student.appleID, password: "from the IdP") else {
            Issue.record("the organization's outage locked the Apple ID")
            return
        }
    }
}
