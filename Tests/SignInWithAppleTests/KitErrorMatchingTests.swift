import AppleIDProtocol
import SignInWithApple
import Testing

/// The kit's errors are structs with static members (as jwt-kit's `JWTError`), so that adding a
/// rule breaks no caller: callers match a kind, compare values, or name an error in a `catch`.
@Suite("Kit errors: matched by kind, by value and as a catch pattern")
struct KitErrorMatchingTests {
    @Test("an identity token refusal names its kind and the values involved")
    func identityTokenKinds() {
        let expired = IdentityTokenError.expired(expiresAt: 1_000, now: 1_090)
        #expect(expired.kind == .expired)
        #expect(expired.tokenTime == 1_000 && expired.now == 1_090)
        #expect(expired.description == "expired at 1000, 90 s ago")
        #expect(expired == .expired(expiresAt: 1_000, now: 1_090))
        #expect(expired != .expired(expiresAt: 1_000, now: 1_091))
        #expect(IdentityTokenError.wrongIssuer("https://evil.example").value == "https://evil.example")
        #expect(IdentityTokenError.nonceConventionMismatch(expected: .sha256).expectedConvention == .sha256)
    }

    @Test("a catch clause names an identity token refusal as it did when it was an enum")
    func catchPattern() {
        func verdict(_ error: any Error) -> String {
            do { throw error } catch IdentityTokenError.nonceConventionMismatch(expected: .plain) {
                return "hashed nonce"
            } catch IdentityTokenError.missingKeyID {
                return "no kid"
            } catch let error as IdentityTokenError where error.kind == .expired {
                return "expired"
            } catch {
                return "other"
            }
        }
        #expect(verdict(IdentityTokenError.nonceConventionMismatch(expected: .plain)) == "hashed nonce")
        #expect(verdict(IdentityTokenError.nonceConventionMismatch(expected: .sha256)) == "other")
        #expect(verdict(IdentityTokenError.missingKeyID) == "no kid")
        #expect(verdict(IdentityTokenError.expired(expiresAt: 1, now: 2)) == "expired")
        #expect(verdict(AppleServiceError.transport("timeout")) == "other")
    }

    @Test("Apple's refusal is the refused kind, with its status and refusal")
    func appleServiceKinds() {
        let refusal = AppleRefusal(code: .invalidGrant, errorDescription: "The code has expired or has been revoked.", status: 400)
        let refused = AppleServiceError.refused(refusal)
        #expect(refused.kind == .refused)
        #expect(refused.refusal?.code == .invalidGrant)
        #expect(refused.status == 400)
        #expect(refused.description == refusal.description)
        let unexpected = AppleServiceError.unexpectedResponse(status: 503, reason: "an HTML page")
        #expect(unexpected.kind == .unexpectedResponse && unexpected.refusal == nil)
        #expect(unexpected.description == "unexpected answer (503): an HTML page")
        #expect(AppleServiceError.transport("timeout").description == "the request failed: timeout")
    }

    @Test("callback, configuration and storage refusals are matched the same ways")
    func otherKitErrors() {
        func page(_ error: any Error) -> String {
            switch error {
            case let callback as CallbackError where callback.isCancellation: "cancelled"
            case CallbackError.unknownState: "stale"
            case CallbackError.otherBrowser, CallbackError.unknownCompletion: "other browser"
            case let callback as CallbackError where callback.kind == .apple: "apple: \(callback.detail ?? "")"
            default: "refused"
            }
        }
        #expect(page(CallbackError.apple("user_cancelled_authorize")) == "cancelled")
        #expect(page(CallbackError.apple("invalid_request")) == "apple: invalid_request")
        #expect(page(CallbackError.unknownState) == "stale")
        #expect(page(CallbackError.unknownCompletion) == "other browser")
        #expect(page(CallbackError.missingCode) == "refused")
        #expect(ConfigurationError.notInAppGroup("com.example.other").clientID == "com.example.other")
        #expect(ConfigurationError.noWebSignIn.kind == .noWebSignIn)
        #expect(SignInWithAppleStorageError.full(capacity: 3).capacity == 3)
        #expect(BrowserBindingError.tooShort == .tooShort)
    }
}
