import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 13: two server instances on one store continue each other's browser flows, because what a
/// flow remembers between requests lives in the store, not in one process's memory. Each instance
/// here is its own provider and router (its own caches and randomness) over one shared store.
@Suite("Two server instances on one store share the browser flows")
struct SharedStoreInstanceTests {
    static func instances(playground: Bool = false) async throws -> (a: TestServer, b: TestServer) {
        let store = MemoryStore()
        let a = try await TestServer.make(autoApprove: TestServer.maria.appleID, playground: playground, store: store)
        let b = try await TestServer.make(
            autoApprove: TestServer.maria.appleID, playground: playground, store: store, seeded: true, randomSeed: "instance b")
        return (a, b)
    }

    @Test("a playground run started on A is finished on B, refreshed on A and revoked on B")
    func playgroundRunAcrossInstances() async throws {
        let (a, b) = try await Self.instances(playground: true)
        try await a.app.test(.router) { clientA in
            try await b.app.test(.router) { clientB in
                let browser = Browser(clientA)
                let fields = try await PlaygroundResultPageTests.callbackFields(browser)

                browser.client = clientB
                let callback = try await browser.post("/playground/callback", form: fields)
                #expect(HTML.element(id: "state-check", in: callback.text) == "state matches this browser's request")
                #expect(callback.text.contains("nonce matches"), "B knows the nonce A sent")
                let run = try #require(HTML.hiddenInputs(callback.text)["run"])

                browser.client = clientA
                let refreshed = try await browser.post("/playground/refresh", form: [("run", run)])
                #expect(refreshed.status == .ok)
                #expect(refreshed.text.contains("id=\"token-response\""), "A refreshes the run B completed")

                browser.client = clientB
                let revoked = try await browser.post("/playground/revoke", form: [("run", run)])
                #expect(revoked.text.contains("id=\"revoked\""))

                browser.client = clientA
                let replayed = try await browser.post("/playground/callback", form: fields)
                #expect(!replayed.text.contains("id=\"token-response\""), "the state was used up on B, for A too")
            }
        }
    }

    @Test("another browser cannot use a run, on either instance")
    func playgroundRunStaysWithItsBrowser() async throws {
        let (a, b) = try await Self.instances(playground: true)
        try await a.app.test(.router) { clientA in
            try await b.app.test(.router) { clientB in
                let callback = try await PlaygroundResultPageTests.callback(Browser(clientA))
                let run = try #require(HTML.hiddenInputs(callback.text)["run"])

                let stranger = Browser(clientB)
                _ = try await stranger.get("/playground")
                let refused = try await stranger.post("/playground/refresh", form: [("run", run)])
                #expect(refused.status == .forbidden)
            }
        }
    }

    @Test("an account sign-in: the password on A, the two-factor code on B")
    func accountSignInAcrossInstances() async throws {
        let (a, b) = try await Self.instances()
        try await a.app.test(.router) { clientA in
            try await b.app.test(.router) { clientB in
                let browser = Browser(clientA)
                let codeStep = try await AccountPages.signIn(browser)
                #expect(codeStep.status == .ok)
                let code = try #require(HTML.element(id: "development-code", in: codeStep.text))

                browser.client = clientB
                let verified = try await AccountPages.verify(browser, codePage: codeStep, code: code)
                #expect(verified.status == .seeOther, "B continues the sign-in A started")
                let page = try await browser.get("/account")
                #expect(page.text.contains(TestServer.maria.appleID))

                browser.client = clientA
                let replayed = try await AccountPages.verify(browser, codePage: codeStep, code: code)
                #expect(replayed.status == .badRequest, "the sign-in ended on B, for A too")
            }
        }
    }
}
