import Testing

@testable import AppleIDButtons

@Suite("Arabic joining and right-to-left order")
struct ArabicShapingTests {
    @Test("letters take their initial, medial, final or isolated form from their neighbours")
    func joining() {
        // باستخدام: beh initial, alef final, seen initial, teh medial, khah medial, dal final, alef isolated, meem isolated.
        let shaped = ArabicShaping.shape("باستخدام").map(\.value)
        #expect(shaped == [0xFE91, 0xFE8E, 0xFEB3, 0xFE98, 0xFEA8, 0xFEAA, 0xFE8D, 0xFEE1])
    }

    @Test("lam followed by alef becomes the lam-alef ligature")
    func lamAlef() {
        #expect(ArabicShaping.shape("لا").map(\.value) == [0xFEFB])
        #expect(ArabicShaping.shape("بلا").map(\.value) == [0xFE91, 0xFEFC])
    }

    @Test("a right-to-left title is reversed but the embedded Latin word keeps its order")
    func visualOrder() {
        let scalars = Array("עם Apple".unicodeScalars)
        let visual = String(String.UnicodeScalarView(VisualOrder.reorder(scalars, rightToLeft: true)))
        #expect(visual == "Apple םע")
        #expect(VisualOrder.reorder(scalars, rightToLeft: false) == scalars)
    }
}
