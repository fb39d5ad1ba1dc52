import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

extension AdminAccountTests {
    @Test("the Apple ID list reads as many statements for 22 Apple IDs as for 2")
    func userListStatementsAreBounded() async throws {
        try await StatementCounter.withSQLiteStore { store, counter in
            let server = try await TestServer.make(store: store)
            try await server.app.test(.router) { client in
                counter.reset()
                let two = try await client.execute(uri: "/admin/users", method: .get, headers: RP.adminHeaders)
                let statementsForTwo = counter.statements
                for number in 1...20 {
                    let account = try await server.provider.createAccount(
                        appleID: "user\(number)@example.com", password: "password", firstName: "User", lastName: "\(number)", email: nil,
                        realUserStatus: .likelyReal)
                    try await ManyApps.add(number...number, accountID: account.id, to: store)
                }
                counter.reset()
                let many = try await client.execute(uri: "/admin/users", method: .get, headers: RP.adminHeaders)
                #expect(two.status == .ok && many.text.contains("user20@example.com") && many.text.contains("MANY000020"))
                #expect(counter.statements == statementsForTwo, "2 Apple IDs: \(statementsForTwo) statements, 22: \(counter.statements)")
            }
        }
    }

    @Test("an operator's new password and the lifted lock are one write: when lifting the lock fails, the password is unchanged")
    func passwordChangeIsOneTransaction() async throws {
        try await StatementCounter.withSQLiteStore { store, counter in
            let server = try await TestServer.make(store: store)
            try await server.app.test(.router) { client in
                counter.fail { $0.contains("sign_in_attempts") }
                let patch = try await client.execute(
                    uri: "/admin/users/\(TestServer.maria.appleID)", method: .patch, headers: RP.adminHeaders,
                    body: ByteBuffer(string: #"{"password":"a new password"}"#))
                #expect(patch.status == .internalServerError)
                counter.fail { _ in false }
                let signIn = try await server.provider.interactions.accountForSignIn(
                    appleID: TestServer.maria.appleID, password: TestServer.maria.password)
                guard case .passed = signIn else {
                    Issue.record("the old password no longer signs in: the new one was saved without its lifted lock")
                    return
                }
            }
        }
    }

    @Test("a deleted Apple ID is unknown to the admin API: changing it answers 404")
    func deletedAppleIDIsUnknown() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let deleted = try await client.execute(uri: "/admin/users/\(TestServer.maria.appleID)", method: .delete, headers: RP.adminHeaders)
            #expect(deleted.status == .noContent)
            let patch = try await client.execute(
                uri: "/admin/users/\(TestServer.maria.appleID)", method: .patch, headers: RP.adminHeaders,
                body: ByteBuffer(string: #"{"first_name":"Ghost"}"#))
            #expect(patch.status == .notFound)
            #expect(!patch.text.contains("Ghost"))
        }
    }
}
