import Testing
@testable import DeepLinks

/// A URL that needs canonicalizing (capitals in scheme or host, escapes, a default port, trailing
/// slashes) has its groups' spans moved onto its own bytes when it matches, so that reading a
/// parameter decodes them instead of canonicalizing the URL again (`RouteHit.movedOntoURL`).
/// These check that every way of reading gives the values the URL was built from, whether the
/// spans moved or not.
@Suite("Parameters of URLs that needed canonicalizing")
struct CanonicalizedParameterTests {
    static let table = try! RouteTable.parse("""
    route pair
        pattern  myapp://item/(?<a>[^/]+)/(?<b>[^/]+)
        target   Pair
        example  myapp://item/x/y
    route tenant
        pattern  https://(?<tenant>[a-z]+)\\.example\\.com/doc/(?<id>[^/]+)
        target   Doc
        example  https://acme.example.com/doc/1
    route kept
        pattern  myapp://file/(?<dir>[^%]*)%2F(?<name>.+)
        target   File
        example  myapp://file/a%2Fb
    route split
        pattern  myapp://odd/(?<a>.*%2)(?<b>F.*)
        target   Odd
        example  myapp://odd/x%2Fy
    """)

    /// Bytes a value may hold: some must be escaped in a path (`/`, `%`, space, `?`, `#`, non-ASCII),
    /// the rest may be escaped or not.
    static let alphabet: [String] = ["a", "Z", "7", "-", "~", "+", ".", "/", "%", " ", "?", "#", "é", "€", "_", "="]

    /// `value` percent-encoded as a path segment: bytes that must be escaped always are, the
    /// others at random, with hex digits in either case.
    static func encode(_ value: String, _ random: inout SeededRandom) -> String {
        var text = ""
        for byte in value.utf8 {
            let mustEscape = byte >= 0x80 || "/%?# ".utf8.contains(byte)
            if mustEscape || random.next(4) == 0 {
                let hex = String(byte, radix: 16, uppercase: random.next(2) == 0)
                text += "%" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return text
    }

    static func value(_ random: inout SeededRandom) -> String {
        (0..<(1 + random.next(6))).map { _ in alphabet[random.next(alphabet.count)] }.joined()
    }

    /// What a match says of its parameters, read owned and lent, by name and all at once.
    static func readings(_ url: String, names: [String]) throws -> [[String: String]] {
        let owned = try table.match(url).get()
        let lent = try table.withMatch(url) { view in
            (Dictionary(uniqueKeysWithValues: names.compactMap { name in view.parameter(name).map { (name, $0) } }), view.parameters)
        }.get()
        return [
            Dictionary(uniqueKeysWithValues: names.compactMap { name in owned.parameter(name).map { (name, $0) } }),
            owned.parameters,
            Dictionary(uniqueKeysWithValues: owned.pathParameters.map { ($0.name, $0.value) }),
            lent.0, lent.1,
        ]
    }

    @Test("generated path values, escaped at random, with capitals, ports and trailing slashes: every reading gives them back")
    func generatedPathValues() throws {
        var random = SeededRandom(seed: 42)
        for _ in 0..<2_000 {
            let (a, b) = (Self.value(&random), Self.value(&random))
            let scheme = random.next(2) == 0 ? "myapp" : "MyApp"
            let host = random.next(2) == 0 ? "item" : "ITEM"
            let tail = ["", "/", "//", "?q=1", "/?q=%41#f", "#frag"][random.next(6)]
            let url = "\(scheme)://\(host)/\(Self.encode(a, &random))/\(Self.encode(b, &random))\(tail)"
            for reading in try Self.readings(url, names: ["a", "b"]) {
                #expect(reading == ["a": a, "b": b], "\(url)")
            }
        }
    }

    @Test("a group in the host (lower-cased, port removed) reads the canonical host, beside a path group that moved")
    func hostGroup() throws {
        for url in ["HTTPS://Acme.Example.COM:443/doc/x%20y", "https://ACME.example.com/doc/x%20y/", "https://acme.example.com:443/doc/x%20y"] {
            for reading in try Self.readings(url, names: ["tenant", "id"]) {
                #expect(reading == ["tenant": "acme", "id": "x y"], "\(url)")
            }
        }
    }

    @Test("an escape the subject keeps (%2F) stays whole: beside a span edge it moves, cut by one it is read from the subject")
    func keptEscapes() throws {
        for url in ["myapp://file/a%2fb", "MYAPP://file/%61%2F%62", "myapp://file/a%2F%2Fb/"] {
            let expected: [String: String] = url.hasSuffix("%2F%2Fb/") ? ["dir": "a", "name": "/b"] : ["dir": "a", "name": "b"]
            for reading in try Self.readings(url, names: ["dir", "name"]) {
                #expect(reading == expected, "\(url)")
            }
        }
        for url in ["myapp://odd/x%2fy", "MYAPP://odd/x%2Fy"] {
            for reading in try Self.readings(url, names: ["a", "b"]) {
                #expect(reading == ["a": "x%2", "b": "Fy"], "\(url)")
            }
        }
    }

    @Test("spans move for a URL that needed canonicalizing, and stay for one whose host group cannot move")
    func whenSpansMove() throws {
        let table = Self.table
        func hit(_ url: String) throws -> RouteHit {
            var source = url
            return try source.withUTF8 { try table.hit(bytes: $0, context: .any).get() }
        }
        #expect(try hit("MYAPP://item/a%20b/c").url.isVerbatim)
        #expect(try hit("myapp://item/a%20b/c").url.isVerbatim)
        #expect(try !hit("HTTPS://ACME.example.com/doc/1").url.isVerbatim)
        #expect(try !hit("MYAPP://odd/x%2Fy").url.isVerbatim)
    }
}
