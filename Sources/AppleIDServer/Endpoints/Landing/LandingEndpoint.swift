import Hummingbird

/// `GET /`: what this server is, with links to the playground and the discovery document. With the
/// playground off, `/playground` is a page that says so and how to turn it on, not a blank 404.
struct LandingEndpoint {
    let renderer: PageRenderer
    let issuer: String
    let playgroundAvailable: Bool

    struct Page {
        let title = "Apple ID server (local)"
        let issuer: String
        let playgroundAvailable: Bool
    }

    struct PlaygroundOffPage {
        let title = "Playground"
    }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/") { _, _ in
            try renderer.render(Page(issuer: issuer, playgroundAvailable: playgroundAvailable), template: "landing")
        }
        if !playgroundAvailable {
            router.get("/playground") { _, _ in
                try renderer.render(PlaygroundOffPage(), template: "playground_off", status: .notFound)
            }
        }
    }
}
