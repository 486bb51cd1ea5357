import CDeepLinks
import Foundation
import Testing
@testable import DeepLinks

/// `SmallASCIIString` makes the same strings as the standard library, for every length it makes.
// Serialized: `buildingATableRunsTheCheck` clears the check's result for a moment, when `make`
// returns nil (other suites only read parameters, which are the same either way).
@Suite("Small ASCII strings are the standard library's strings", .serialized)
struct SmallASCIIStringTests {
    @Test("on this machine the small form is in use, so routing takes it")
    func available() {
        SmallASCIIString.check()
        #expect(SmallASCIIString.layoutMatches())
        #expect(SmallASCIIString.isAvailable)
    }

    @Test("building a route table runs the check; until it has run, nothing is made")
    func buildingATableRunsTheCheck() throws {
        cdeeplinks_set_small_strings(0)
        #expect(!SmallASCIIString.isAvailable)
        #expect(Array("1042".utf8).withUnsafeBufferPointer { SmallASCIIString.make($0.baseAddress!, count: $0.count) } == nil)
        var builder = RouteTableBuilder()
        builder.add([RouteDefinition(name: "task", pattern: "myapp://task/(?<id>[0-9]+)", target: "task", examples: ["myapp://task/1"])])
        let table = try builder.build()
        #expect(SmallASCIIString.isAvailable)
        #expect(table.firstMatch("myapp://task/1042")?.parameter("id") == "1042")
    }

    @Test("every length from 0 to 15, over generated ASCII, equals String(decoding:) in every way a caller can tell")
    func agreesWithTheStandardLibrary() throws {
        var random = SystemRandomNumberGenerator()
        for count in 0...15 {
            for _ in 0..<200 {
                let bytes = (0..<count).map { _ in UInt8.random(in: 0...0x7F, using: &random) }
                let expected = String(decoding: bytes, as: UTF8.self)
                let made = try #require(bytes.withUnsafeBufferPointer { buffer in
                    SmallASCIIString.make(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: count)
                })
                #expect(made == expected)
                #expect(Array(made.utf8) == bytes)
                #expect(made.count == expected.count && made.unicodeScalars.count == count)
                #expect(made.hashValue == expected.hashValue)
                #expect(unsafeBitCast(made, to: (UInt64, UInt64).self) == unsafeBitCast(expected, to: (UInt64, UInt64).self))
                var grown = made
                grown += "é and more than fifteen bytes"
                #expect(grown == expected + "é and more than fifteen bytes")
            }
        }
    }

    @Test("a span of a buffer, read in words that may begin before it, is the string of its bytes alone")
    func spans() throws {
        var random = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 24, 40] {
            // Bytes before a span (here any byte, non-ASCII too) must not leak into its string.
            let buffer = (0..<length).map { _ in UInt8.random(in: 0...0xFF, using: &random) }
            let ascii = buffer.map { $0 & 0x7F }
            for bytes in [buffer, ascii] {
                for start in 0...length {
                    for end in start...length {
                        let span = start..<end
                        let made = bytes.withUnsafeBufferPointer { SmallASCIIString.make($0, span) }
                        let slice = Array(bytes[span])
                        if slice.isEmpty || slice.count > 15 || slice.contains(where: { $0 >= 0x80 }) {
                            if !slice.isEmpty { #expect(made == nil, "\(span) of \(bytes)") }
                            continue
                        }
                        let expected = String(decoding: slice, as: UTF8.self)
                        #expect(made == expected, "\(span) of \(bytes)")
                        #expect(made.map { unsafeBitCast($0, to: (UInt64, UInt64).self) == unsafeBitCast(expected, to: (UInt64, UInt64).self) } == true)
                        let string = bytes.withUnsafeBufferPointer { CanonicalURL.string($0, span) }
                        #expect(string == expected)
                    }
                }
            }
        }
    }

    @Test("non-ASCII bytes and more than 15 bytes are left to the standard library")
    func refusals() {
        for bytes in [Array("caf\u{E9}".utf8), [0x80], Array("0123456789abcdef".utf8), [0x41, 0xFF]] {
            #expect(bytes.withUnsafeBufferPointer { SmallASCIIString.make($0.baseAddress!, count: $0.count) } == nil)
        }
    }

    @Test("a path parameter read from a match is the same string either way, ASCII or not")
    func parametersThroughMatches() throws {
        var builder = RouteTableBuilder()
        builder.add([RouteDefinition(name: "task", pattern: "myapp://task/(?<id>[^/]+)", target: "Task",
                                     examples: ["myapp://task/1"])])
        let table = try builder.build()
        for id in ["1", "1042", "proj-launch-2026", "a.b_c~d", "caf%C3%A9", "%E2%82%AC12", "fifteen-bytes-x"] {
            let match = try table.match("myapp://task/\(id)").get()
            let expected = try #require(id.removingPercentEncoding)
            #expect(match.parameter("id") == expected)
            #expect(try table.withMatch("myapp://task/\(id)") { $0.parameter("id") }.get() == expected)
        }
    }
}
