import Testing
@testable import DeepLinks

/// The one-pass canonicalizer (`fastLayout`) against the rule-by-rule reference (`referenceLayout`):
/// on every input both accept with the same subject and layout, or both refuse.
@Suite("Canonicalizer: fast path agrees with the reference")
struct CanonicalizerAgreementTests {
    static let canonicalizers = [
        URLCanonicalizer(),
        URLCanonicalizer(maxURLLength: 48, maxParameterLength: 6),
    ]

    /// Pieces URLs are assembled from: every delimiter, valid and invalid escapes, cases, ports,
    /// non-ASCII text, control characters and runs long enough to hit the small limits.
    static let pieces: [String] = [
        "myapp", "MyApp", "https", "HTTP", "http", "x1+.-", "1x", ":", "://", ":/", "/", "//", "///",
        "task", "TASK", "example.com", "Example.COM", ":443", ":80", ":8443", "@", "user@", " ", "%",
        "%2F", "%2f", "%25", "%41", "%4", "%zz", "%C3%A9", "%C3", "%A9", "%FF", "%E2%82", "%E2%82%AC", "%00", "%7F",
        "é", "✓", "😀", "+", ".", "..", "\n", "\u{7F}", "\t", "?", "&", "=", "#", "a", "0", "42",
        "aaaaaaa", "%41%41%41%41%41%41%41", "q=a+b", "flag", "&&", "=x", "a=b=c",
    ]

    @Test("generated URLs", arguments: 0..<4)
    func generated(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        for _ in 0..<5_000 {
            var url = ""
            if random.next(4) != 0 { url = ["myapp://", "HTTPS://", "http://", "myapp:", "https://Ex.com:443"][random.next(5)] }
            for _ in 0..<random.next(12) { url += Self.pieces[random.next(Self.pieces.count)] }
            for canonicalizer in Self.canonicalizers { expectAgreement(url, canonicalizer) }
        }
    }

    @Test("fuzz-like bytes", arguments: 0..<4)
    func randomBytes(seed: Int) {
        var random = SeededRandom(seed: 1_000 + UInt64(seed))
        let alphabet = Array("myapp:/%?#&=+.AZaz09 @".utf8) + [0x00, 0x0A, 0x7F, 0x80, 0xC3, 0xA9, 0xE2, 0xFF]
        for _ in 0..<5_000 {
            var bytes = Array("myapp://".utf8).prefix(random.next(9))
            for _ in 0..<random.next(40) { bytes.append(alphabet[random.next(alphabet.count)]) }
            // As the router sees it: a Swift string, so invalid UTF-8 has been repaired.
            let url = String(decoding: bytes, as: UTF8.self)
            for canonicalizer in Self.canonicalizers { expectAgreement(url, canonicalizer) }
        }
    }

    @Test("the table-driven URLs of URLCanonicalizerTests")
    func tableDriven() {
        let urls = URLCanonicalizerTests.accepted.map(\.0) + URLCanonicalizerTests.queries.map(\.0) + URLCanonicalizerTests.refused.map(\.0)
        for url in urls {
            for canonicalizer in Self.canonicalizers + [URLCanonicalizer(maxURLLength: 200, maxParameterLength: 20)] {
                expectAgreement(url, canonicalizer)
            }
        }
    }

    private func expectAgreement(_ url: String, _ canonicalizer: URLCanonicalizer) {
        var source = url
        source.withUTF8 { bytes in
            let capacity = max(bytes.count, 1)
            let fastBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
            let referenceBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
            defer { fastBuffer.deallocate(); referenceBuffer.deallocate() }
            let fast = canonicalizer.fastLayout(bytes, into: fastBuffer)
            let reference = Result { () throws(CanonicalizationFailure) in try canonicalizer.referenceLayout(bytes, into: referenceBuffer) }
            switch (fast, reference) {
            case let (fast?, .success(reference)):
                #expect(fast == reference, "layouts differ for \(url.debugDescription)")
                #expect(Array(fastBuffer[0..<fast.length]) == Array(referenceBuffer[0..<reference.length]),
                        "subjects differ for \(url.debugDescription)")
            case (nil, .failure):
                break
            case let (fast, reference):
                Issue.record("fast \(String(describing: fast)) but reference \(reference) for \(url.debugDescription)")
            }
        }
    }
}

/// SplitMix64, for reproducible generated inputs.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((value ^ (value >> 31)) % UInt64(bound))
    }
}
