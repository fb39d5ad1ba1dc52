import Hummingbird

/// `GET /`: what this server is, with links to the playground and the discovery document.
struct LandingEndpoint {
    let renderer: PageRenderer
    let issuer: String
    let playgroundAvailable: Bool

    struct Page {
        let title = "Apple ID server (local)"
        let issuer: String
        let playgroundAvailable: Bool
    }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/") { _, _ in
            try renderer.render(Page(issuer: issuer, playgroundAvailable: playgroundAvailable), template: "landing")
        }
    }
}
