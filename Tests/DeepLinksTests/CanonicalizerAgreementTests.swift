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
            // As the router sees a Swift string (invalid UTF-8 repaired), and as it sees bytes (`withMatch(utf8:)`).
            let url = String(decoding: bytes, as: UTF8.self)
            for canonicalizer in Self.canonicalizers {
                expectAgreement(url, canonicalizer)
                expectAgreement(bytes: Array(bytes), canonicalizer)
            }
        }
    }

    @Test("paths of plain bytes and escapes of ASCII bytes, with capitals in scheme and host", arguments: 0..<4)
    func plainPaths(seed: Int) {
        var random = SeededRandom(seed: 3_000 + UInt64(seed))
        let plain = Array("abz09-._~/=&:+@!$'()*,;[] ".utf8)
        let escapes = ["%2F", "%2f", "%25", "%41", "%7e", "%20", "%3F", "%23", "%00", "%1F", "%7F"]
        let starts = ["MYAPP://", "myapp://Task", "https://Example.com:443", "HTTP://a:80", "myapp:", "x://H"]
        for _ in 0..<5_000 {
            var url = starts[random.next(starts.count)]
            for _ in 0..<random.next(60) {
                url += random.next(8) == 0 ? escapes[random.next(escapes.count)] : String(UnicodeScalar(plain[random.next(plain.count)]))
            }
            url += ["", "/", "//", "?q=%41", "#f", "/?a=b#c"][random.next(6)]
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

    @Test("URLs that are mostly canonical already", arguments: 0..<4)
    func mostlyCanonical(seed: Int) {
        var random = SeededRandom(seed: 2_000 + UInt64(seed))
        // Plain bytes plus a few that need work, so the verbatim check meets both.
        let alphabet = Array("abz09-._~/?=&:+@!$'()*,;[]".utf8) + Array("AZ% #".utf8)
        let starts = ["myapp://", "https://example.com", "https://example.com:443", "http://a:80", "myapp:", "x://", "a1+.-:"]
        for _ in 0..<5_000 {
            var bytes = Array(starts[random.next(starts.count)].utf8)
            for _ in 0..<random.next(70) {
                bytes.append(random.next(10) == 0 ? alphabet[random.next(alphabet.count)] : alphabet[random.next(alphabet.count - 5)])
            }
            let url = String(decoding: bytes, as: UTF8.self)
            for canonicalizer in Self.canonicalizers { expectAgreement(url, canonicalizer) }
        }
    }

    @Test("the verbatim check accepts typical canonical URLs", arguments: [
        "myapp://task/42", "myapp://task/42/", "https://myapp.example.com/task/42?source=stack&x=1",
        "myapp://widget", "myapp://widget?flag", "myapp:task/42", "https://example.com/a//b/../Caf-e~_.x",
        "myapp://t/0123456789abcdef0123456789abcdef0123456789abcdef",
        // Schemes checked a word at a time, and those left to the byte loop (`+`, `-`, `.`, 8+ bytes).
        "m1app://x/1", "a1:x/y", "ab+c.d-e://h/x", "abcdefgh://x/y", "x-callback-url://open?x=1",
    ])
    func verbatimAccepts(url: String) {
        var source = url
        source.withUTF8 { bytes in
            #expect(URLCanonicalizer().verbatimLayout(bytes) != nil)
        }
        expectAgreement(url, URLCanonicalizer())
    }

    @Test("the verbatim check leaves URLs that need work to the full pass", arguments: [
        "MyApp://task/42", "myapp://Task/42", "myapp://task/4%32", "myapp://task/42#top", "myapp://user@task/42",
        "https://example.com:443/a", "myapp://task/caf\u{E9}", "myapp://task/a b", "1x://task",
        "myApp://task/1", "myapp_://task/1", "my/app://task/1", "abcdefG://x/y", "a?b:c/d",
    ])
    func verbatimDeclines(url: String) {
        var source = url
        source.withUTF8 { bytes in
            #expect(URLCanonicalizer().verbatimLayout(bytes) == nil)
        }
    }

    private func expectAgreement(_ url: String, _ canonicalizer: URLCanonicalizer) {
        expectAgreement(bytes: Array(url.utf8), canonicalizer)
    }

    /// `expectAgreement` for a URL's bytes, which need not be UTF-8.
    private func expectAgreement(bytes source: [UInt8], _ canonicalizer: URLCanonicalizer) {
        let url = "\(String(decoding: source, as: UTF8.self)) (bytes \(source))"
        source.withUnsafeBufferPointer { bytes in
            if let verbatim = canonicalizer.verbatimLayout(bytes) {
                // An answer of the verbatim check must be the reference's, with the URL's own bytes as subject.
                let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
                defer { buffer.deallocate() }
                let reference = try? canonicalizer.referenceLayout(bytes, into: buffer)
                #expect(reference == verbatim, "verbatim layout differs for \(url.debugDescription)")
                if let reference {
                    #expect(Array(buffer[0..<reference.length]) == Array(bytes[0..<verbatim.length]),
                            "verbatim subject differs for \(url.debugDescription)")
                }
            }
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
