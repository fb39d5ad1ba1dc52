import Foundation
import Testing

@testable import siwa

/// The admin verbs exit 1 with the server's reason whenever the answer reports an error, even
/// one that came with a 2xx status (a server of an older version answered refusals that way).
@Suite("siwa admin verbs: an answer that reports an error is a failure")
struct AdminClientTests {
    static func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test(
        "an error in the answer, at the top or in a result, is the command's failure, with its reason",
        arguments: [
            (
                #"{"error":"invalid_request","error_description":"response_mode must be form_post"}"#,
                "invalid_request: response_mode must be form_post"
            ),
            (#"{"results":[{"error":"invalid_request"}]}"#, "invalid_request"),
            (#"{"results":[{"code":"c1"},{"error":"access_denied","error_description":"no"}]}"#, "access_denied: no"),
        ])
    func reportedErrors(_ testCase: (String, String)) throws {
        #expect(AdminClient.reportedError(in: try Self.object(testCase.0)) == testCase.1)
    }

    @Test("an answer without an error is printed as it is")
    func answers() throws {
        #expect(AdminClient.reportedError(in: try Self.object(#"{"results":[{"code":"c1","state":"s"}]}"#)) == nil)
        #expect(AdminClient.reportedError(in: try Self.object(#"{"apple_id":"maria@example.com"}"#)) == nil)
        #expect(AdminClient.reportedError(in: [:]) == nil)
    }
}
