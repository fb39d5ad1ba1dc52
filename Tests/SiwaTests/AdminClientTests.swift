import Foundation
import Testing

@testable import siwa

/// The admin verbs exit 1 with the server's reason whenever the answer reports an error, even
/// one that came with a 2xx status (a server of an older version answered refusals that way).
@Suite("siwa admin verbs: an answer that reports an error is a failure")
struct AdminClientTests {
    static let call = "POST /admin/authorizations → 200"

    static func object(_ json: String) throws -> [UInt8] {
        Array(json.utf8)
    }

    @Test(
        "an error in the answer, at the top or in a result, is the command's failure, with its reason",
        arguments: [
            (
                #"{"error":"invalid_request","error_description":"response_mode must be form_post"}"#,
                "response_mode must be form_post (invalid_request from POST /admin/authorizations → 200)"
            ),
            (#"{"results":[{"error":"invalid_request"}]}"#, "invalid_request (from POST /admin/authorizations → 200)"),
            (
                #"{"results":[{"code":"c1"},{"error":"access_denied","error_description":"no"}]}"#,
                "no (access_denied from POST /admin/authorizations → 200)"
            ),
        ])
    func reportedErrors(_ testCase: (String, String)) throws {
        #expect(AdminClient.refusal(in: try Self.object(testCase.0), call: Self.call) == testCase.1)
    }

    @Test("an answer without an error is printed as it is")
    func answers() throws {
        #expect(AdminClient.refusal(in: try Self.object(#"{"results":[{"code":"c1","state":"s"}]}"#), call: Self.call) == nil)
        #expect(AdminClient.refusal(in: try Self.object(#"{"apple_id":"maria@example.com"}"#), call: Self.call) == nil)
        #expect(AdminClient.refusal(in: Array("{}".utf8), call: Self.call) == nil)
        #expect(AdminClient.refusal(in: [], call: Self.call) == nil)
    }
}
