import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import SignInWithApple
import Testing

@testable import JuiceApp

@Suite("Juice: the clock trap names itself", .timeLimit(.minutes(5)))
struct JuiceClockSkewTests {
    @Test("a sign-in refused because the Apple ID server's clock is ahead says so, and how to fix it")
    func clockAhead() async throws {
        try await withJuice { juice in
            juice.apple.advanceClock(by: 301)  // the Apple ID server's clock only; Juice keeps its own
            let callback = try await juice.browser.approveAtApple(from: try await juice.browser.get("/signin"), as: juice.apple.defaultUser.appleID)
            let page = try await juice.browser.postCallback(callback)
            ErrorPageTests.expectHumanPage(page, title: "The clocks disagree")
            // 301 s, less the time the test itself took between minting and checking.
            let seconds = try #require(page.text.firstMatch(of: #/clock is (\d+) seconds ahead/#).flatMap { Int($0.1) })
            #expect((241...301).contains(seconds))
            #expect(page.text.contains("siwa clock reset"))

            // The failed completion gave the authorization back: after the reset, the retry is a first
            // authorization again, and Apple sends the name and e-mail once more.
            juice.apple.clock.reset()
            let retry = try await juice.browser.approveAtApple(from: try await juice.browser.get("/signin"), as: juice.apple.defaultUser.appleID)
            #expect(retry.user != nil, "the first authorization was not used up by the failure")
            #expect(try await juice.browser.postCallback(retry).status == .seeOther)
        }
    }
}
