import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import JuiceApp

/// Juice with Managed Apple IDs (spec §21): a student has no e-mail, a teacher's is unverified.
@Suite("Juice: Managed Apple IDs", .timeLimit(.minutes(5)))
struct ManagedAccountTests {
    @Test("a student with no e-mail signs in: the account works, nothing is asked, and the next sign-in finds it")
    func student() async throws {
        try await withJuice { juice in
            let school = try await juice.apple.createOrganization(name: "Cupertino High")
            let student = try await juice.apple.createManagedUser(username: "sam@appleid.cupertino.example.edu", in: school, firstName: "Sam")
            let (callback, page) = try await juice.browser.signInWithApple(as: student.username)
            #expect(callback.headers[.location] == "/account")
            #expect(page.text.contains("Hello, Sam Student"))
            #expect(!page.text.contains("What should we call you"))
            let account = try #require(
                try await juice.database.sql.raw("SELECT * FROM accounts").first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase))
            #expect(account.email == "")
            #expect(!account.emailVerified)
            #expect(account.usesSignInWithApple)

            juice.browser.forgetCookies()
            let (_, again) = try await juice.browser.signInWithApple(as: student.username)
            #expect(again.text.contains("Hello, Sam Student"))
            #expect(try await juice.accountCount() == 1)
        }
    }

    @Test("a teacher whose organization address matches a password account is not linked by e-mail: linked by sub only")
    func teacherNotLinkedByEmail() async throws {
        try await withJuice { juice in
            let school = try await juice.apple.createOrganization()
            let teacher = try await juice.apple.createManagedUser(
                username: "tim@appleid.cupertino.example.edu", in: school, firstName: "Tim", lastName: "Teacher",
                email: "tim@cupertino.example.edu")
            _ = try await juice.browser.signUp(email: "tim@cupertino.example.edu", password: "juice-password", firstName: "Tim", lastName: "P")
            juice.browser.forgetCookies()

            let callback = try await juice.browser.approveAtApple(from: try await juice.browser.get("/signin"), as: teacher.username)
            let done = try await juice.browser.postCallback(callback)
            #expect(done.headers[.location] != "/link", "an unverified address links nothing")
            #expect(try await juice.accountCount() == 2)

            juice.browser.forgetCookies()
            let (_, page) = try await juice.browser.signInWithApple(as: teacher.username)
            #expect(page.text.contains("Hello, Tim Teacher"))
            #expect(try await juice.accountCount() == 2)
        }
    }
}
