import AppleIDProtocol
import Foundation
import Hummingbird
import SignInWithApple
import Vapor

// What the examples take from the app around them: its accounts, sessions and database. Never
// called: the examples that use them are compiled, so that a renamed kit API breaks the build.

struct Account: Sendable {
    var id: String
    var subject: String
    var grant: AppleGrant
}

struct Accounts: Sendable {
    init(_ database: Any? = nil) {}
    func signIn(_ result: SignInResult) async throws -> Account { throw StandInError.notAnApp }
    func signOut(_ account: Account) async throws {}
}

struct SignInRecord: Sendable {
    var startedAt: Date
}

struct Sessions: Sendable {
    init(_ database: Any? = nil) {}
    func start(for account: Account, redirectTo location: String) async throws -> Hummingbird.Response {
        Hummingbird.Response(status: .seeOther, headers: [.location: location])
    }
    func endAll(forSubject subject: String) async throws {}
    func end(forSubject subject: String, where applies: (SignInRecord) -> Bool) async throws {}
}

struct NativeSignInBody: Sendable {
    var identityToken: String
    var authorizationCode: String
    var fullName: AuthorizedUser.Name?
}

struct NativeSession: Sendable {
    var rawNonce: String?
}

enum StandInError: Error { case notAnApp }

func checkCSRF(_ request: Hummingbird.Request, _ context: BasicRequestContext) throws {}

extension Vapor.Application {
    /// Fluent's `app.db`, as the example's app has it.
    var db: Any { StandInError.notAnApp }
}

extension Vapor.Request {
    var db: Any { StandInError.notAnApp }
}
