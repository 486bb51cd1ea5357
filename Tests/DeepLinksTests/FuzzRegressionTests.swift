import Foundation
import Testing
@testable import DeepLinks

/// Inputs libFuzzer found (Fuzz/README.md), kept so they stay fixed.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// RouteMatchFuzzer, crash-dd91a67c: a 1,020-byte URL full of bytes that are not UTF-8 (each
    /// becomes U+FFFD, 9 bytes once percent-encoded), so its canonical form is longer than the
    /// 4,096-byte URL limit and no longer routes. The invariant now holds for canonical forms
    /// within the limit; longer ones are refused with `urlTooLong`, never a crash.
    @Test("a canonical form longer than the URL limit is refused, not a crash")
    func canonicalFormOverLimit() throws {
        let bytes = try #require(Data(base64Encoded: "bXlhcHA6Ly90YXNLLzQ/Ly90YXNLLzQ/pKR0fHCA/yU0YXAlNERvdWJsZc9hcC80P6SkdHxwgP8lNGFwJTREb3VibGVhOP///8nJycnJycnJycnJycnJycnJycnJycnJycnJycnJycnJycnJycnJycnJKcnJycnJycnJycnJLcnJycnJycnJycnJycnJycnJycnJycnJycnJycnJycn///////////////////////////////////////////////////////////////////////9zOi8vbXlhcHAuZXj/////////////////////////////+f//////////////////////////////////bXlhcHA6Ly90YXNLLzY/pKR0fHCA/yU0YXB5NGEvJTREb3VibGXPYXAvcGxlLmP/////////////////////////////////////////////PcnJycnJycnJycnJycnJycnJycnJycnJycnJycnJycnJycnJycnJycn//////////////////////////////////////////////////////////////////////////////////////////////////////////////////3M6Ly9teWFwcC5leP/////////////////////////////5//////////////////////////////////9teWFwcDovL3Rhc0svNj+kpHR8cID/JTRhcHk0YS8lNERvdWJsZc9hcC9wbGUuY/////////////////////////////////////////////89/////////////////////////89hcC9wbGUrL3BsZSvmYw=="))
        let url = String(decoding: bytes, as: UTF8.self)
        // The table the fuzzer ran against when it found this input (numeric task ids).
        let table = try RouteTable.parse("""
            route task.detail
                pattern  myapp://task/(?<id>[0-9]+)
                target   TaskDetail
                query    source optional (homescreen|lockscreen|stack)
                example  myapp://task/42
            """, file: "fuzz.routes")
        let match = try #require(table.firstMatch(url))
        #expect(match.routeName == "task.detail")
        let canonical = match.canonicalURL.string
        #expect(canonical.utf8.count > table.canonicalizer.maxURLLength)
        #expect(throws: RoutingFailure.self) { try table.match(canonical).get() }
        #expect(table.explain(url).winner == "task.detail")
    }
}
