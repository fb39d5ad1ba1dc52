import AppleIDProvider
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// ``ManagedSignInAuthenticator`` that hands the password step of an organization with a federation
/// URL to its identity provider (spec §21): POSTs `{"org_id", "username", "password"}` as JSON and
/// takes a 2xx as "accepted" and a 4xx as "wrong password". Anything else (a 5xx, a redirect, no
/// answer within `timeout`) fails closed. Organizations without a federation URL keep the server's
/// own password. The password is never logged, nor what the IdP answered beyond its status.
public struct HTTPFederatedSignIn: ManagedSignInAuthenticator {
    let timeout: TimeAmount
    let logger: Logger

    public init(timeout: TimeAmount = .seconds(5), logger: Logger = Logger(label: "AppleIDServer.FederatedSignIn")) {
        self.timeout = timeout
        self.logger = logger
    }

    struct Check: Encodable {
        let organizationID: String
        let username: String
        let password: String

        enum CodingKeys: String, CodingKey {
            case organizationID = "org_id"
            case username, password
        }
    }

    public func checkPassword(_ password: String, of account: AppleIDAccount, in organization: Organization) async -> ManagedPasswordVerdict {
        guard let url = organization.federationURL else {
            return await StoredPasswordAuthenticator().checkPassword(password, of: account, in: organization)
        }
        let metadata: Logger.Metadata = ["org_id": "\(organization.claimValue)"]
        do {
            let body = try JSONEncoder().encode(Check(organizationID: organization.claimValue, username: account.appleID, password: password))
            let status = try await post(body, to: url)
            switch status {
            case 200..<300: return .accepted
            case 400..<500: return .refused
            default:
                logger.warning("federated sign-in failed", metadata: metadata.merging(["status": "\(status)"]) { $1 })
                return .unavailable
            }
        } catch {
            // The error's type only: a client error's description can quote the request.
            logger.warning("federated sign-in failed", metadata: metadata.merging(["error": "\(type(of: error))"]) { $1 })
            return .unavailable
        }
    }

    /// One short-lived client per check, as the notification sender does: sign-ins of federated
    /// organizations are few, and a redirect is an answer, never followed (it could send the password
    /// elsewhere).
    private func post(_ body: Data, to url: String) async throws -> Int {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: timeout, read: timeout)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "User-Agent", value: "AppleIDServer-FederatedSignIn/1.0")
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await client.execute(request, timeout: timeout)
            _ = try await response.body.collect(upTo: 64 * 1024)
            try await client.shutdown()
            return Int(response.status.code)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
