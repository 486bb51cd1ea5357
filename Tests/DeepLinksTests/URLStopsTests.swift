import CDeepLinks
import Testing
@testable import DeepLinks

/// Verbatim dispatch finds stops with a `URLByteMap` (SSE2, URLs of 16 to 64 bytes) or with
/// `WordScanStops` (eight bytes at a time, any length): both must give what reading the bytes one
/// at a time gives, from every start offset, on every length the map covers and around it.
@Suite("URL stops: byte map and word scan agree with bytes read one at a time")
struct URLStopsTests {
    /// Stop bytes, plain bytes, and bytes outside `&`...`~` (space, `%`, `#`, DEL, UTF-8).
    static let alphabet: [UInt8] = Array("//??aZ09-._~&=+:@".utf8) + [0x20, 0x25, 0x23, 0x7F, 0xC3, 0xA9, 0x00]

    struct Reference {
        let bytes: [UInt8]

        func firstStop(from start: Int) -> Int {
            bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.count
        }

        func scanAfterKey(from start: Int) -> AfterKeyScan {
            if bytes[start...].contains(where: { $0 < 0x26 || $0 > 0x7E }) { return .needsWork }
            let mark = bytes[start...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
            return AfterKeyScan(queryMark: mark, slashes: bytes[start..<mark].count { $0 == UInt8(ascii: "/") })
        }
    }

    @Test("random bytes of 8 to 80 bytes, every start", arguments: 0..<3)
    func random(seed: Int) {
        var random = SeededRandom(seed: 9_000 + UInt64(seed))
        var mapped = 0
        for _ in 0..<3_000 {
            let count = 8 + random.next(73)
            // Mostly plain bytes, so that scans after a start often succeed.
            let bytes = (0..<count).map { _ in
                random.next(4) == 0 ? Self.alphabet[random.next(Self.alphabet.count)] : UInt8(ascii: "a") + UInt8(random.next(26))
            }
            let reference = Reference(bytes: bytes)
            bytes.withUnsafeBufferPointer { buffer in
                let input = buffer.baseAddress!
                let words = WordScanStops(input, count: count)
                let map = (URLByteMap.shortest...URLByteMap.longest).contains(count) ? URLByteMap(input, count: count) : nil
                if map != nil {
                    mapped += 1
                    // SSE2 blocks (on x86-64) and the byte-at-a-time fallback other machines use agree.
                    let blocks = cdeeplinks_map(input, count), bytewise = cdeeplinks_map_bytewise(input, count)
                    #expect(blocks.slashes == bytewise.slashes && blocks.marks == bytewise.marks && blocks.outside == bytewise.outside,
                            "\(bytes)")
                }
                for start in 0...count {
                    let stop = reference.firstStop(from: start)
                    #expect(words.firstStop(from: start) == stop, "\(bytes) from \(start)")
                    let scan = reference.scanAfterKey(from: start)
                    // The word scan also checks up to seven bytes before `start` in its last word
                    // (verbatim dispatch starts it after a key, whose bytes are all plain).
                    if !bytes[max(0, start - 8)..<start].contains(where: { $0 < 0x26 || $0 > 0x7E }) {
                        #expect(words.scanAfterKey(from: start) == scan, "\(bytes) from \(start)")
                    }
                    if let map {
                        #expect(map.firstStop(from: start) == stop, "\(bytes) from \(start)")
                        #expect(map.scanAfterKey(from: start) == scan, "\(bytes) from \(start)")
                    }
                }
            }
        }
        #expect(mapped > 1_500)
    }
}
