import AppleIDProtocol
import Testing

@Suite("Constant-time comparison")
struct ConstantTimeTests {
    @Test(
        "equal bytes are equal; any difference, in content or length, is not",
        arguments: [
            ("abc", "abc", true), ("abc", "abd", false), ("abc", "ab", false), ("", "", true), ("\u{212A}", "K", false),
        ])
    func comparison(_ testCase: (String, String, Bool)) {
        #expect(ConstantTime.equal(testCase.0, testCase.1) == testCase.2)
    }
}
