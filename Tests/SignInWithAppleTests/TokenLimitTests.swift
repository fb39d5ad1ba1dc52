import AppleIDProtocol
import Foundation
import SignInWithApple
import Testing

/// Checks an outside attack set found missing: `nbf`, empty or absurdly long identifiers, and the
/// size of what the verifier agrees to parse. Every token here is validly signed by the trusted key.
@Suite("Token limits: nbf, claim lengths, token size")
struct TokenLimitTests {
    static let now = AttackTokenTests.now

    static func token(_ changes: [String: Any?]) -> String { AttackTokenTests.token(claims: AttackTokenTests.claims(changes)) }

    static func failure(of token: String) async -> (any Error)? {
        await VerifierSupport.failure { try await AttackTokenTests.verifier().verify(token) }
    }

    @Test("a token whose nbf is beyond the leeway is refused")
    func notBeforeInTheFuture() async {
        let error = await Self.failure(of: Self.token(["nbf": Self.now + 61]))
        #expect(error != nil)
        #expect(String(describing: error).contains("not valid before"))
    }

    @Test("an empty sub is refused")
    func emptySubject() async {
        let error = await Self.failure(of: Self.token(["sub": ""]))
        #expect(error != nil)
        #expect(String(describing: error).contains("sub is empty"))
    }

    @Test("a sub over 255 bytes is refused")
    func longSubject() async {
        let error = await Self.failure(of: Self.token(["sub": String(repeating: "a", count: 256)]))
        #expect(error != nil)
        #expect(String(describing: error).contains("sub is 256 bytes"))
    }

    @Test("a token over 16 KiB is refused before anything is decoded, and the error says so")
    func oversizedToken() async {
        let padding = String(repeating: "x", count: 16 * 1024)
        let error = await Self.failure(of: Self.token(["padding": padding]))
        #expect(error != nil)
        #expect(String(describing: error).contains("16384"))
    }
}
