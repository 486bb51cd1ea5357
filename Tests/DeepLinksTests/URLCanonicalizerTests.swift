import Testing
@testable import DeepLinks

@Suite("URL canonicalization")
struct URLCanonicalizerTests {
    let canonicalizer = URLCanonicalizer(maxURLLength: 200, maxParameterLength: 20)

    /// (input, expected subject, expected canonical string)
    static let accepted: [(String, String, String)] = [
        ("myapp://task/42", "myapp://task/42", "myapp://task/42"),
        ("MyApp://TASK/42", "myapp://task/42", "myapp://task/42"),
        ("myapp://task/42/", "myapp://task/42", "myapp://task/42"),
        ("myapp://task/42//", "myapp://task/42", "myapp://task/42"),
        ("myapp://widget/", "myapp://widget", "myapp://widget"),
        ("myapp://widget", "myapp://widget", "myapp://widget"),
        ("myapp://task/a%2Fb", "myapp://task/a%2Fb", "myapp://task/a%2Fb"),
        ("myapp://task/a%2fb", "myapp://task/a%2Fb", "myapp://task/a%2Fb"),
        ("myapp://task/100%25", "myapp://task/100%25", "myapp://task/100%25"),
        ("myapp://task/%41%42", "myapp://task/AB", "myapp://task/AB"),
        ("myapp://task/caf%C3%A9", "myapp://task/café", "myapp://task/caf%C3%A9"),
        ("myapp://task/café", "myapp://task/café", "myapp://task/caf%C3%A9"),
        ("myapp://task/a+b", "myapp://task/a+b", "myapp://task/a+b"),
        ("myapp://task/a%20b", "myapp://task/a b", "myapp://task/a%20b"),
        ("myapp://task/42#frag", "myapp://task/42", "myapp://task/42"),
        ("myapp://task/42?#frag", "myapp://task/42", "myapp://task/42"),
        ("https://Example.COM:443/x", "https://example.com/x", "https://example.com/x"),
        ("https://example.com:8443/x", "https://example.com:8443/x", "https://example.com:8443/x"),
        ("http://example.com:80", "http://example.com", "http://example.com"),
        ("myapp:task/42", "myapp:task/42", "myapp:task/42"),
        ("myapp://a//b", "myapp://a//b", "myapp://a//b"),
        ("myapp://a/./b/..", "myapp://a/./b/..", "myapp://a/./b/.."),
        ("myapp://w?kind=a+b", "myapp://w", "myapp://w?kind=a%20b"),
    ]

    @Test("accepted URLs", arguments: accepted)
    func acceptedURL(input: String, subject: String, canonical: String) throws {
        let url = try canonicalizer.canonicalize(input)
        #expect(url.subject == subject)
        #expect(url.string == canonical)
        // The canonical form is a fixed point.
        #expect(try canonicalizer.canonicalize(url.string) == url)
    }

    static let queries: [(String, [QueryItem])] = [
        ("myapp://w?a=1&b=2", [.init(name: "a", value: "1"), .init(name: "b", value: "2")]),
        ("myapp://w?a=1&a=2&a=", [.init(name: "a", value: "1"), .init(name: "a", value: "2"), .init(name: "a", value: "")]),
        ("myapp://w?flag&x=", [.init(name: "flag", value: ""), .init(name: "x", value: "")]),
        ("myapp://w?q=a+b%2Bc", [.init(name: "q", value: "a b+c")]),
        ("myapp://w?q=a=b", [.init(name: "q", value: "a=b")]),
        ("myapp://w?&&a=1&&", [.init(name: "a", value: "1")]),
        ("myapp://w?=orphan&a=1", [.init(name: "a", value: "1")]),
        ("myapp://w?n%C3%A4me=%E2%9C%93", [.init(name: "näme", value: "✓")]),
        ("myapp://w?a=1#b=2", [.init(name: "a", value: "1")]),
    ]

    @Test("query parsing", arguments: queries)
    func query(input: String, items: [QueryItem]) throws {
        #expect(try canonicalizer.canonicalize(input).queryItems == items)
    }

    static let refused: [(String, CanonicalizationFailure)] = [
        ("", .empty),
        ("task/42", .missingScheme),
        ("1app://x", .missingScheme),
        ("myapp://task/%4", .invalidPercentEncoding(offset: 13)),
        ("myapp://task/%zz", .invalidPercentEncoding(offset: 13)),
        ("myapp://task/%C3%28", .invalidUTF8(offset: 13)),
        ("myapp://task/%FF", .invalidUTF8(offset: 13)),
        ("myapp://w?a=%E2%82", .invalidUTF8(offset: 12)),
        ("myapp://w?a=%G1", .invalidPercentEncoding(offset: 12)),
        ("myapp://user@task/1", .invalidHost("user@task")),
        ("myapp://ta%73k/1", .invalidHost("ta%73k")),
        ("myapp://task/4\n2", .controlCharacter(offset: 14)),
        ("myapp://task/" + String(repeating: "a", count: 21), .parameterTooLong(length: 21, limit: 20)),
        ("myapp://task/" + String(repeating: "%41", count: 21), .parameterTooLong(length: 21, limit: 20)),
        ("myapp://w?q=" + String(repeating: "b", count: 21), .parameterTooLong(length: 21, limit: 20)),
        ("myapp://w?" + String(repeating: "%6E", count: 21) + "=1", .parameterTooLong(length: 21, limit: 20)),
        ("myapp://w#" + String(repeating: "f", count: 191), .urlTooLong(length: 201, limit: 200)),
        ("myapp://" + String(repeating: "a/", count: 100), .urlTooLong(length: 208, limit: 200)),
    ]

    @Test("refused URLs give a reason", arguments: refused)
    func refusedURL(input: String, failure: CanonicalizationFailure) {
        #expect(throws: failure) { try canonicalizer.canonicalize(input) }
    }

    @Test("the default limits are those Routes/README.md states: 4,096 bytes a URL, its fragment included; 1,024 decoded bytes a path segment, query name or query value")
    func defaultLimits() throws {
        let defaults = URLCanonicalizer()
        let most = String(repeating: "n", count: 1024)
        for url in ["myapp://w/\(most)", "myapp://w?\(most)=1", "myapp://w?q=\(most)",
                    "myapp://w#" + String(repeating: "f", count: 4096 - 10)] {
            #expect(throws: Never.self) { try defaults.canonicalize(url) }
        }
        for url in ["myapp://w/\(most)n", "myapp://w?\(most)n=1", "myapp://w?\(most)%6E", "myapp://w?q=\(most)n"] {
            #expect(throws: CanonicalizationFailure.parameterTooLong(length: 1025, limit: 1024)) { try defaults.canonicalize(url) }
        }
        #expect(throws: CanonicalizationFailure.urlTooLong(length: 4097, limit: 4096)) {
            try defaults.canonicalize("myapp://w#" + String(repeating: "f", count: 4097 - 10))
        }
    }

    @Test("path segments keep an encoded slash inside one segment")
    func segments() throws {
        let url = try canonicalizer.canonicalize("myapp://files/a%2Fb/c%25d/")
        #expect(url.pathSegments == ["a/b", "c%d"])
        #expect(url.host == "files")
    }
}
