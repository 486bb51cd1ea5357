import Foundation
import Testing
@testable import HTTPServer

@Suite("Query text decoding")
struct QueryTextTests {
    @Test("agrees with Foundation's percent-decoding after + becomes a space", arguments: [
        "", "plain", "a+b", "a%20b", "%2Fx%2f", "%C3%A9t%C3%A9", "100%", "%zz", "%4", "%%41", "%C3", "%FF%FE",
        "+%2B+", "caf%c3%a9", "%00", "😀%F0%9F%98%80", "a%2", "%E2%82",
    ])
    func agreesWithFoundation(text: String) {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        #expect(QueryText.decode(text) == (spaced.removingPercentEncoding ?? spaced))
    }
}
