import AppleIDAdminAPI
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing
import Yams

@testable import AppleIDServer

/// The admin API's OpenAPI document stays true by construction: it is the one served, it names every
/// registered `/admin` route and no other, and each request body's properties are exactly the keys
/// its Swift type reads. (A test rather than swift-openapi-generator: see ``AdminOpenAPIEndpoint``.)
@Suite("Admin API: the OpenAPI document")
struct AdminOpenAPITests {
    static let admin = NativeCredentialTests.admin

    /// The document as `GET /admin/openapi.yaml` serves it, parsed.
    static func servedDocument() async throws -> OpenAPIDocument {
        let server = try await TestServer.make()
        let text = try await server.app.test(.router) { client in
            let response = try await client.execute(uri: "/admin/openapi.yaml", method: .get, headers: Self.admin)
            try #require(response.status == .ok)
            return String(buffer: response.body)
        }
        return try OpenAPIDocument(yaml: text)
    }

    @Test("GET /admin/openapi.yaml serves an OpenAPI 3.1 document as YAML, and only with the admin token")
    func served() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            #expect(try await client.execute(uri: "/admin/openapi.yaml", method: .get).status == .unauthorized)
            let response = try await client.execute(uri: "/admin/openapi.yaml", method: .get, headers: Self.admin)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/yaml") == true)
            let document = try OpenAPIDocument(yaml: String(buffer: response.body))
            #expect(document.version == "3.1.0")
        }
    }

    @Test("the document names every registered /admin route, and no route that is not registered")
    func everyRouteDocumented() async throws {
        let server = try await TestServer.make()
        let router = try await buildRouter(provider: server.provider, relay: server.relay, options: ServerOptions(adminToken: TestServer.adminToken))
        // Hummingbird writes a parameter as `:name`; OpenAPI as `{name}`.
        let registered = Set(
            router.routes.map { "\($0.method.rawValue) \($0.path.description)" }.filter { $0.split(separator: " ")[1].hasPrefix("/admin/") }
                .map { $0.replacing(/:(\w+)/) { "{\($0.1)}" } })
        let documented = try await Self.servedDocument().operations
        let undocumented = registered.subtracting(documented).sorted()
        let unregistered = documented.subtracting(registered).sorted()
        #expect(
            undocumented.isEmpty,
            "routes registered but missing from Sources/AppleIDServer/OpenAPI/openapi.yaml: \(undocumented.joined(separator: ", "))")
        #expect(unregistered.isEmpty, "operations in openapi.yaml that no route serves: \(unregistered.joined(separator: ", "))")
        #expect(registered.count > 40, "the router's /admin routes were not found: \(registered.sorted())")
    }

    /// Each request body schema of the document, and the type its handler decodes.
    static let requestTypes: [(schema: String, type: any Decodable.Type)] = [
        ("AccountOrder", AccountOrder.self),
        ("ClockAdvance", ClockAdvance.self),
        ("ClockSetting", ClockSetting.self),
        ("AuthorizationOrder", AuthorizationOrder.self),
        ("NativeOrder", NativeOrder.self),
        ("GroupAction", GroupAction.self),
        ("ForwardingChange", ForwardingChange.self),
        ("EndpointChange", EndpointChange.self),
        ("EndpointChange", EndpointChange.self),
        ("URLOrder", ReturnURLOrder.self),
        ("QuirksOrder", QuirksOrder.self),
        ("TeamOrder", TeamOrder.self),
        ("TeamCountryOrder", TeamCountryOrder.self),
        ("KeyOrder", KeyOrder.self),
        ("TransferOrder", TransferOrder.self),
        ("AppIDOrder", AppIDOrder.self),
        ("DeveloperOrder", DeveloperOrder.self),
        ("InvitationOrder", InvitationOrder.self),
        ("SourcesOrder", SourcesOrder.self),
        ("OrganizationOrder", OrganizationOrder.self),
        ("AppOrder", AppOrder.self),
        ("RuleOrder", RuleOrder.self),
        ("MemberOrder", MemberOrder.self),
        ("MemberChange", MemberChange.self),
        ("FaultOrder", FaultOrder.self),
        ("NotificationOrder", NotificationOrder.self),
        ("PasswordOrder", PasswordOrder.self),
        ("DomainsOrder", DomainsOrder.self),
    ]

    @Test("each request body's documented properties are exactly the keys its Swift type reads")
    func requestBodiesMatchTheirTypes() async throws {
        let document = try await Self.servedDocument()
        var mismatches: [String] = []
        for (schema, type) in Self.requestTypes {
            let documented = try document.propertyNames(ofSchema: schema)
            let read = try KeyProbingDecoder.keys(of: type)
            if documented != read {
                mismatches.append(
                    "\(schema) (\(type)): read but not documented \(read.subtracting(documented).sorted()), "
                        + "documented but not read \(documented.subtracting(read).sorted())")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "; "))")
        let paired = Set(Self.requestTypes.map(\.schema))
        let unpaired = document.requestBodySchemas.subtracting(paired).sorted()
        #expect(unpaired.isEmpty, "request body schemas with no Swift type in AdminOpenAPITests.requestTypes: \(unpaired)")
    }
}
