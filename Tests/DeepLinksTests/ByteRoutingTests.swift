import Testing
@testable import DeepLinks

/// `RouteTable.withMatch(utf8:)` routes a URL given as bytes: the same answers as routing the same
/// URL as a `String`, and a clear failure for bytes a `String` cannot hold (invalid UTF-8), wherever
/// in the URL they are.
@Suite("Routing URLs given as bytes")
struct ByteRoutingTests {
    let table: RouteTable

    init() throws {
        table = try RouteMatchViewTests().table
    }

    @Test("bytes route as the same URL as a String does, and fail the same way", arguments: RouteMatchViewTests.urls)
    func agreesWithString(url: String) throws {
        let fromString = table.withMatch(url) { RouteMatchViewTests.Reading($0) }
        let fromBytes = Array(url.utf8).withUnsafeBufferPointer { bytes in
            table.withMatch(utf8: bytes) { RouteMatchViewTests.Reading($0) }
        }
        #expect(fromBytes == fromString)
        guard case let .success(match) = table.match(url) else { return }
        let kept = try Array(url.utf8).withUnsafeBufferPointer { bytes in try table.withMatch(utf8: bytes) { $0.owned() }.get() }
        #expect(kept == match)
    }

    @Test("tap context applies to bytes as to strings")
    func context() throws {
        let table = try RouteTable.parse("""
            route linked
                pattern  myapp://task/(?<id>[0-9]+)
                target   Task
                sources  link
                example  myapp://task/1

            route anyway
                pattern  myapp://task/(?<id>[0-9]+)
                target   TaskFallback
                example  myapp://task/2
            """)
        let url = Array("myapp://task/7".utf8)
        for (source, expected) in [(TapSource.link, "linked"), (.widgetURL, "anyway")] {
            let name = url.withUnsafeBufferPointer { table.withMatch(utf8: $0, context: TapContext(source: source)) { $0.routeName } }
            #expect(name == .success(expected))
        }
    }

    /// URLs whose bytes are not UTF-8, with where routing says they fail: the first bad byte.
    static let invalid: [(bytes: [UInt8], failure: RoutingFailure)] = [
        (Array("myapp://task/".utf8) + [0xFF], .invalidURL(.notUTF8(offset: 13))),
        (Array("myapp://task/a".utf8) + [0xC3], .invalidURL(.notUTF8(offset: 14))),  // cut short
        (Array("myapp://task/".utf8) + [0xC3, 0x28], .invalidURL(.notUTF8(offset: 13))),
        (Array("myapp://task/".utf8) + [0xED, 0xA0, 0x80], .invalidURL(.notUTF8(offset: 13))),  // a surrogate
        (Array("myapp://task/".utf8) + [0xC0, 0xAF], .invalidURL(.notUTF8(offset: 13))),  // an overlong `/`
        (Array("myapp://task/".utf8) + [0xF4, 0x90, 0x80, 0x80], .invalidURL(.notUTF8(offset: 13))),  // above U+10FFFF
        (Array("myapp://task/7?x=".utf8) + [0xFF], .invalidURL(.notUTF8(offset: 17))),
        (Array("myapp://task/7?x=1&".utf8) + [0xE2, 0x82] + Array("=2".utf8), .invalidURL(.notUTF8(offset: 19))),
        (Array("myapp://ta".utf8) + [0xFF] + Array("sk/7".utf8), .invalidURL(.notUTF8(offset: 10))),
        (Array("https://ex".utf8) + [0xC3] + Array(".com/task/7".utf8), .invalidURL(.notUTF8(offset: 10))),
        ([0xFF] + Array("myapp://task/7".utf8), .invalidURL(.notUTF8(offset: 0))),
        // An escape and a stray byte that make UTF-8 together once decoded (`%DC` then 0xAD: U+072D) are
        // still not UTF-8 as given (RouteMatchFuzzer, crash-42d74167, the fuzzer's own check).
        (Array("myapp://task/%DC".utf8) + [0xAD], .invalidURL(.notUTF8(offset: 16))),
        (Array("c:?9:c%dc".utf8) + [0xAD], .invalidURL(.notUTF8(offset: 9))),
        // Over the URL limit: the length is said first.
        (Array("myapp://task/".utf8) + [UInt8](repeating: 0xFF, count: 5_000), .invalidURL(.urlTooLong(length: 5_013, limit: 4_096))),
    ]

    @Test("bytes that are not UTF-8 fail with the offset of the first bad byte, never match", arguments: 0..<invalid.count)
    func notUTF8(index: Int) {
        let (bytes, expected) = Self.invalid[index]
        let routed = bytes.withUnsafeBufferPointer { table.withMatch(utf8: $0) { $0.routeName } }
        #expect(routed == .failure(expected))
        #expect(expected.description.hasPrefix("invalid URL: the URL is"))
    }

    @Test("a fragment is ignored whatever its bytes, as in a String")
    func fragment() {
        let bytes = Array("myapp://task/7#".utf8) + [0xFF, 0xFE]
        let routed = bytes.withUnsafeBufferPointer { table.withMatch(utf8: $0) { ($0.routeName, $0.parameter("id")) } }
        #expect((try? routed.get())?.0 == table.firstMatch("myapp://task/7")?.routeName)
        #expect((try? routed.get())?.1 == "7")
    }

    /// RouteMatchFuzzer, crash-f49b84b4 (the fuzzer's own check): a fragment of bytes that are not UTF-8 is
    /// ignored as bytes, but as a `String` each becomes U+FFFD (three bytes), which can take the URL past its limit.
    @Test("a fragment that is not UTF-8 is ignored, also where repairing it would make the URL too long")
    func longFragment() {
        let bytes = Array("myapp://task/7#".utf8) + [UInt8](repeating: 0xFF, count: 2_000)
        let routed = bytes.withUnsafeBufferPointer { table.withMatch(utf8: $0) { $0.parameter("id") } }
        #expect(routed == .success("7"))
        let repaired = String(decoding: bytes, as: UTF8.self)
        #expect(table.withMatch(repaired) { $0.parameter("id") } == .failure(.invalidURL(.urlTooLong(length: 6_015, limit: 4_096))))
    }

    /// RouteMatchFuzzer, crash-dc1a4057 and crash-a2a0c048 (the fuzzer's own check): everything after a leading
    /// `#` is fragment, so such a URL has no scheme, whatever bytes follow.
    @Test("a URL that is all fragment has no scheme, whatever its bytes")
    func allFragment() {
        for bytes in [Array("#://".utf8) + [0xFF, 0x06, 0x2F, 0x06], Array("#sss".utf8) + [0xFF, 0xFF] + Array("s::/".utf8)] {
            let routed = bytes.withUnsafeBufferPointer { table.withMatch(utf8: $0) { $0.routeName } }
            #expect(routed == .failure(.invalidURL(.missingScheme)))
        }
    }

    @Test("an empty buffer fails as an empty URL")
    func empty() {
        let routed = table.withMatch(utf8: UnsafeBufferPointer(start: nil, count: 0)) { $0.routeName }
        #expect(routed == .failure(.invalidURL(.empty)))
    }
}
