import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Testing

@Suite("Console: where a notification endpoint may point")
struct NotificationEndpointRuleTests {
    @Test(
        "outside development mode an IP literal, loopback, private or metadata endpoint is refused with a clear message",
        arguments: [
            "https://127.0.0.1/apple", "https://169.254.169.254/latest/meta-data", "https://[::1]/apple", "https://[::ffff:127.0.0.1]/apple",
            "https://0.0.0.0/apple", "https://2130706433/apple", "https://10.1.2.3/apple", "https://93.184.216.34/apple",
        ])
    func ipLiteralRefused(url: String) async throws {
        let harness = try await ProviderHarness.make()
        let refusal = await #expect(throws: ConsoleError.self) {
            _ = try await harness.provider.setNotificationEndpoint(url, groupID: "com.a.app", teamID: "TEAMAAAAAA")
        }
        #expect(refusal?.kind == .invalid)
        #expect(refusal?.message.contains("host name") == true)
        #expect(try await harness.store.appGroup("com.a.app")?.notificationEndpoint == nil)
    }

    @Test("in development mode a loopback endpoint is accepted (Juice on 127.0.0.1)")
    func loopbackInDevelopmentMode() async throws {
        let harness = try await ProviderHarness.make { $0.developmentMode = true }
        let group = try await harness.provider.setNotificationEndpoint("http://127.0.0.1:8081/apple", groupID: "com.a.app", teamID: "TEAMAAAAAA")
        #expect(group.notificationEndpoint == "http://127.0.0.1:8081/apple")
    }

    static func v6(_ groups: [UInt16]) -> EndpointAddress {
        EndpointAddress(bytes: groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }, text: "v6")!
    }

    @Test(
        "loopback, private, link-local, metadata, CGNAT and their IPv6 and IPv4-mapped forms are not public addresses",
        arguments: [
            (EndpointAddress(ipv4: 127, 0, 0, 1), false), (EndpointAddress(ipv4: 0, 0, 0, 0), false), (EndpointAddress(ipv4: 10, 9, 8, 7), false),
            (EndpointAddress(ipv4: 172, 31, 255, 255), false), (EndpointAddress(ipv4: 192, 168, 1, 1), false),
            (EndpointAddress(ipv4: 169, 254, 169, 254), false), (EndpointAddress(ipv4: 100, 64, 0, 1), false),
            (EndpointAddress(ipv4: 100, 100, 100, 200), false), (EndpointAddress(ipv4: 255, 255, 255, 255), false),
            (v6([0, 0, 0, 0, 0, 0, 0, 1]), false), (v6([0, 0, 0, 0, 0, 0, 0, 0]), false), (v6([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]), false),
            (v6([0, 0, 0, 0, 0, 0xffff, 0xa9fe, 0xa9fe]), false), (v6([0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254]), false),
            (v6([0xfc00, 0, 0, 0, 0, 0, 0, 1]), false), (v6([0xfe80, 0, 0, 0, 0, 0, 0, 1]), false),
            (v6([0x64, 0xff9b, 0, 0, 0, 0, 0x0a00, 1]), false),
            (v6([0x2002, 0x7f00, 0x0001, 0, 0, 0, 0, 0]), false),
            (EndpointAddress(ipv4: 93, 184, 216, 34), true), (EndpointAddress(ipv4: 172, 32, 0, 1), true),
            (EndpointAddress(ipv4: 100, 128, 0, 1), true),
            (v6([0x2606, 0x2800, 0x220, 1, 0x248, 0x1893, 0x25c8, 0x1946]), true), (v6([0, 0, 0, 0, 0, 0xffff, 0x5db8, 0xd822]), true),
        ])
    func publicAddresses(address: EndpointAddress, isPublic: Bool) {
        #expect(NotificationDestinationRule.isPublic(address) == isPublic, "\(address.bytes)")
    }

    static let resolver = StaticEndpointAddressResolver([
        "a.example.com": [EndpointAddress(ipv4: 93, 184, 216, 34)],
        "internal.example.com": [EndpointAddress(ipv4: 10, 0, 0, 5)],
        "mixed.example.com": [EndpointAddress(ipv4: 93, 184, 216, 34), EndpointAddress(ipv4: 169, 254, 169, 254)],
        "localhost": [EndpointAddress(ipv4: 127, 0, 0, 1)],
    ])

    @Test(
        "outside development mode a name resolving to a refused address is refused; a public name, or one not resolving yet, is saved",
        arguments: [
            ("https://internal.example.com/apple", false), ("https://mixed.example.com/apple", false), ("https://localhost/apple", false),
            ("https://a.example.com/apple", true), ("https://not-yet.example.com/apple", true),
        ])
    func resolvedNames(url: String, saved: Bool) async throws {
        let harness = try await ProviderHarness.make(endpointResolver: Self.resolver)
        do {
            _ = try await harness.provider.setNotificationEndpoint(url, groupID: "com.a.app", teamID: "TEAMAAAAAA")
            #expect(saved)
        } catch let error as ConsoleError {
            #expect(!saved)
            #expect(error.message.contains("resolves to a loopback, private, link-local or metadata address"))
        }
        #expect(try await harness.store.appGroup("com.a.app")?.notificationEndpoint == (saved ? url : nil))
    }

    @Test("delivery checks again and hands over the checked address; development mode leaves resolving to the client")
    func destinationAtDelivery() async throws {
        let strict = try await ProviderHarness.make(endpointResolver: Self.resolver)
        let destination = try await strict.provider.notificationDestination(for: "https://a.example.com/apple")
        #expect(destination.address == EndpointAddress(ipv4: 93, 184, 216, 34))
        #expect(destination.host == "a.example.com")
        await #expect(throws: DeliveryFailure.destinationNotAllowed) {
            _ = try await strict.provider.notificationDestination(for: "https://internal.example.com/apple")
        }
        await #expect(throws: DeliveryFailure.couldNotConnect) {
            _ = try await strict.provider.notificationDestination(for: "https://not-yet.example.com/apple")
        }
        let development = try await ProviderHarness.make(endpointResolver: Self.resolver) { $0.developmentMode = true }
        #expect(try await development.provider.notificationDestination(for: "http://127.0.0.1:8081/apple").address == nil)
    }
}
