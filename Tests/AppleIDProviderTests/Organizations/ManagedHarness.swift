import AppleIDProtocol
import AppleIDProvider
import Foundation

/// A school on the harness's engine, allowing team A's app only, with a teacher (organization
/// e-mail) and a student (none).
struct ManagedHarness {
    let harness: ProviderHarness
    let school: Organization
    let teacher: AppleIDAccount
    let student: AppleIDAccount

    static func make(
        managedSignIn: any ManagedSignInAuthenticator = StoredPasswordAuthenticator(), configure: (inout ProviderConfiguration) -> Void = { _ in }
    ) async throws -> ManagedHarness {
        let harness = try await ProviderHarness.make(managedSignIn: managedSignIn, configure: configure)
        let organizations = harness.provider.organizations
        let school = try await organizations.add(
            name: "Cupertino High", kind: .school, verifiedDomains: ["cupertino.example.edu"], accessRule: .specificApps,
            allowedApps: ["com.a.app"])
        let teacher = try await organizations.addAccount(
            to: school.id, username: "teacher@appleid.cupertino.example.edu", password: "pw", firstName: "Tim", lastName: "Teacher",
            email: "tim@cupertino.example.edu")
        let student = try await organizations.addAccount(
            to: school.id, username: "student@appleid.cupertino.example.edu", password: "pw", firstName: "Sam", lastName: "Student")
        return ManagedHarness(harness: harness, school: school, teacher: teacher, student: student)
    }

    /// A headless authorization of `account` for `group`'s web client, asking for name and e-mail,
    /// with the consumer choices a script would send (hide the e-mail, another name).
    func authorize(_ account: AppleIDAccount, group: String = "com.a.app") async throws -> AuthorizationResponse {
        let request = AuthorizationRequest(
            clientID: group + ".web", redirectURI: "https://\(group)/callback", responseType: "code id_token",
            responseMode: "form_post", scope: "name email", state: "s", nonce: "n")
        let choices = ConsentChoices(firstName: "Edited", lastName: "Name", hideEmail: true)
        guard case .answered(let answer) = try await harness.provider.authorizeHeadless(request, appleID: account.appleID, choices: choices)
        else { throw ProviderHarness.HarnessError.notAnswered }
        return answer
    }

    /// The raw JSON of the answer's id_token payload, to see how claims are spelt.
    func payload(_ answer: AuthorizationResponse) throws -> [String: Any] {
        let token = try answer.issued?.idToken ?? { throw ProviderHarness.HarnessError.notAnswered }()
        let jws = try CompactJWS(token)
        return try JSONSerialization.jsonObject(with: Data(try jws.payloadBytes())) as? [String: Any] ?? [:]
    }
}
