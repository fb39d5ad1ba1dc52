import AppleIDAdminAPI
import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// The native side, emulated (our extension, under the admin token): credential state, and the
/// credential an app receives from its authorization requests (`ASAuthorizationAppleIDCredential`
/// or `ASPasswordCredential`).
struct AdminNativeEndpoints {
    let provider: AppleIDProvider

    /// The longest a credential-event long-poll may wait, in seconds.
    static let longestWait: Double = 60

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/credential-state") { request, _ in
            // By Apple ID too: `siwa check` knows whom it signed in, not the team's `sub`.
            if let appleID = request.uri.queryParameters.get("apple_id"), let clientID = request.uri.queryParameters.get("client_id") {
                guard let state = try await provider.credentialState(appleID: appleID, clientID: ClientID(rawValue: clientID)) else {
                    throw AdminError.notFound("no client \(clientID)", code: .invalidClient)
                }
                return try AdminEndpoints.json(CredentialStateView(state: state.rawValue))
            }
            guard let user = request.uri.queryParameters.get("user"), let clientID = request.uri.queryParameters.get("client_id") else {
                throw AdminError.invalidRequest("user (or apple_id) and client_id are required")
            }
            guard let state = try await provider.credentialState(subject: Subject(rawValue: user), clientID: ClientID(rawValue: clientID)) else {
                throw AdminError.notFound("no client \(clientID)", code: .invalidClient)
            }
            // An Apple ID is no `sub`: answering notFound would look like a real answer about a real user.
            if state == .notFound, user.contains("@") {
                throw AdminError.invalidRequest(
                    "\(user) is an Apple ID, not a user identifier (sub); `siwa users list` shows each user's sub per team")
            }
            return try AdminEndpoints.json(CredentialStateView(state: state.rawValue))
        }
        // The analogue of credentialRevokedNotification: a long-poll over the group's revocations.
        admin.get("/credential-events") { request, _ in
            let query = request.uri.queryParameters
            guard let clientID = query.get("client_id") else { throw AdminError.invalidRequest("client_id is required") }
            let after = query.get("after")
            if let after, OutboxCursor(text: after) == nil { throw AdminError.invalidRequest("after is not a cursor of this feed") }
            let seconds = query.get("wait").map { Double($0) } ?? 0
            guard let seconds, (0...Self.longestWait).contains(seconds) else {
                throw AdminError.invalidRequest("wait is a number of seconds from 0 to \(Int(Self.longestWait))")
            }
            guard
                let page = try await provider.credentialEvents(
                    clientID: ClientID(rawValue: clientID), after: after, wait: .milliseconds(Int64(seconds * 1000)))
            else { throw AdminError.notFound("no client \(clientID)", code: .invalidClient) }
            return try AdminEndpoints.json(CredentialEventFeed(page))
        }
        // The device's sheet for the app's providers (our extension): the credential the user picks,
        // and what the sheet offered.
        admin.post("/native-credentials") { request, context in
            let order = try await request.decode(as: NativeOrder.self, context: context)
            let sheet = try await provider.presentNativeSheet(try order.credentialRequest())
            switch sheet.credential {
            case .canceled(let cancellation):
                return try NativeFailure.canceled(cancellation.description, offered: sheet.offered)
                    .response(cancellation == .userCanceled ? .conflict : .notFound)
            case .declined(let decline):
                return try NativeFailure(error: decline.errorName, code: decline.code, errorDescription: decline.description, offered: sheet.offered)
                    .response(decline == .preferSignInWithApple ? .conflict : .notFound)
            case .password(let saved):
                return try AdminEndpoints.json(PasswordCredential(user: saved.user, password: saved.password, offered: sheet.offered))
            case .appleID(.rejected(let error)): throw AdminError(error)
            case .appleID(.unknownAppleID(let appleID)): throw AdminError.notFound("no Apple ID \(appleID)")
            case .appleID(.answered(let answer)):
                return try AdminEndpoints.json(try NativeCredential(answer, scopes: order.scopes, offered: sheet.offered))
            }
        }
    }
}
