import Testing
@testable import DeepLinks

/// `CanonicalURL.string` taken verbatim (`verbatimString`) against the piecewise form (`encodedString`): whenever
/// the verbatim form applies it gives the same text, and it does apply to plain URLs.
@Suite("Canonical URL text: verbatim form agrees with the piecewise one")
struct CanonicalStringAgreementTests {
    @Test("hand-picked URLs", arguments: [
        "myapp://task/task-42", "myapp://task/task-42?source=homescreen", "https://example.com/a/b?x=1&y=2",
        "myapp://widget?kind=TaskList&source=link", "myapp:task/1", "myapp:/task/1", "myapp://files/a%2F/b",
        "myapp://t/a%25b", "myapp://t/caf%C3%A9", "myapp://t/a b", "myapp://t?q=a+b", "myapp://t?q=%41",
        "myapp://t?flag", "myapp://t?a=b=c", "myapp://t?a=1&&b=2", "myapp://t?=v", "myapp://t?", "myapp://t?a=",
        "myapp://t?a=1&", "HTTPS://Example.COM:443/Task/7?y=2#frag", "myapp://", "myapp://host", "myapp://t/~x/!$'()*",
    ])
    func handPicked(url: String) throws {
        let canonical = try URLCanonicalizer().canonicalize(url)
        if let verbatim = canonical.verbatimString { #expect(verbatim == canonical.encodedString, "\(url)") }
        #expect(canonical.string == canonical.encodedString)
    }

    @Test("plain URLs take the verbatim form")
    func plainURLsAreVerbatim() throws {
        for url in ["myapp://task/task-42", "myapp://task/task-42?source=homescreen", "https://example.com/a?x=1&y=2"] {
            #expect(try URLCanonicalizer().canonicalize(url).verbatimString == url)
        }
        #expect(try URLCanonicalizer().canonicalize("myapp://t?q=a+b").verbatimString == nil)
    }

    @Test("generated URLs", arguments: 0..<4)
    func generated(seed: Int) {
        var random = SeededRandom(seed: 7_000 + UInt64(seed))
        var verbatimCount = 0
        for _ in 0..<5_000 {
            var url = ["myapp://", "https://ex.com", "myapp:", "HTTP://Ex.com:80"][random.next(4)]
            for _ in 0..<random.next(12) {
                url += CanonicalizerAgreementTests.pieces[random.next(CanonicalizerAgreementTests.pieces.count)]
            }
            guard let canonical = try? URLCanonicalizer().canonicalize(url) else { continue }
            if let verbatim = canonical.verbatimString {
                verbatimCount += 1
                #expect(verbatim == canonical.encodedString, "\(url)")
            }
        }
        #expect(verbatimCount > 100)
    }
}
