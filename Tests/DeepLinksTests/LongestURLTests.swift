import Testing
@testable import DeepLinks

/// A match keeps its URL's offsets in 31 bits (`MatchedURL`), so a router refuses URLs longer
/// than `MatchedURL.longestURL` bytes before matching, even with no URL limit of its own.
@Suite("URLs too long for 31-bit offsets are refused before any byte is read")
struct LongestURLTests {
    @Test("a URL one byte over the longest fails with urlTooLong, its bytes unread")
    func overLongest() throws {
        var builder = RouteTableBuilder()
        builder.canonicalizer = URLCanonicalizer(maxURLLength: .max)
        // The probe's adversarial inputs are as long as the URL limit.
        builder.probesBacktracking = false
        builder.addFile(text: """
            route task
                pattern  myapp://task/(?<id>[0-9]+)
                target   Task
                example  myapp://task/1
            """, file: "long.routes")
        let table = try builder.build()
        // Sixteen real bytes, a count of 2 GiB: the refusal must come from the count alone (reading
        // on would run far past the array).
        let bytes = Array("myapp://task/123".utf8)
        bytes.withUnsafeBufferPointer { real in
            let claimed = UnsafeBufferPointer(start: real.baseAddress, count: MatchedURL.longestURL + 1)
            #expect(table.plan.verbatimDispatch(claimed, maxURLLength: .max, maxParameterLength: 1_024).answer == nil)
            guard case let .failure(failure) = table.hit(bytes: claimed, context: .any) else {
                Issue.record("a URL over the longest was matched")
                return
            }
            #expect(failure == .invalidURL(.urlTooLong(length: MatchedURL.longestURL + 1, limit: MatchedURL.longestURL)))
            // The sixteen bytes themselves route.
            if case let .failure(failure) = table.hit(bytes: real, context: .any) { Issue.record("\(failure)") }
        }
    }
}
