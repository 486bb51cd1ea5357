import Testing
@testable import HTTPServer

@Suite("HTTPHeaders: field names match ASCII-case-insensitively, and nothing else")
struct HTTPHeadersTests {
    @Test("names that match: the same, or the same letters in another case")
    func matching() {
        for (left, right) in [("Content-Length", "content-length"), ("X-REQUEST-ID", "x-request-id"), ("", ""),
                              ("a1-_.~", "A1-_.~"), ("Zz", "zZ")] {
            #expect(HTTPHeaders.namesMatch(left, right), "\(left) and \(right)")
        }
    }

    /// Bytes 0x20 apart that are not letters (`@` and `` ` ``, `[` and `{`, `^` and `~`, `?` and DEL's neighbour),
    /// prefixes, and non-ASCII letters, whose case this does not fold.
    @Test("names that do not match, among them bytes a case apart that are not letters")
    func notMatching() {
        for (left, right) in [("@", "`"), ("[", "{"), ("]", "}"), ("^", "~"), ("\\", "|"), ("_", "\u{7F}"),
                              ("Content-Length", "Content-Lengt"), ("Content-Length", "Content-Type"),
                              ("É", "é"), ("x", "")] {
            #expect(!HTTPHeaders.namesMatch(left, right), "\(left) and \(right)")
            #expect(!HTTPHeaders.namesMatch(right, left), "\(right) and \(left)")
        }
    }

    @Test("lookups, replacement and removal go by those names")
    func lookups() {
        var headers = HTTPHeaders(capacity: 2)
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "X-Tag", value: "1")
        headers.add(name: "x-tag", value: "2")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.values(for: "X-TAG") == ["1", "2"])
        #expect(headers["X-Ta"] == nil)
        headers["x-TAG"] = "3"
        #expect(headers.values(for: "x-tag") == ["3"])
        headers["Content-type"] = nil
        #expect(headers.fields.map(\.name) == ["x-TAG"])
    }
}
