import Hummingbird

/// Every route of the developer console, one section a type.
struct ConsoleRoutes {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        ConsoleEndpoints(site: site).register(on: router)
        ConsoleIdentifierEndpoints(site: site).register(on: router)
        ConsoleRegisterEndpoints(site: site).register(on: router)
        ConsoleAppIDEndpoints(site: site).register(on: router)
        ConsoleRemovalEndpoints(site: site).register(on: router)
        ConsoleKeyEndpoints(site: site).register(on: router)
        ConsoleKeyRegisterEndpoints(site: site).register(on: router)
        ConsoleNotificationEndpoints(site: site).register(on: router)
        ConsoleRequestEndpoints(site: site).register(on: router)
        ConsoleRelayEndpoints(site: site).register(on: router)
        ConsoleTransferEndpoints(site: site).register(on: router)
        ConsoleMemberEndpoints(site: site).register(on: router)
        ConsoleInvitationEndpoints(site: site).register(on: router)
        ConsoleAccountEndpoints(site: site).register(on: router)
    }
}
