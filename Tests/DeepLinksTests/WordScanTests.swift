@testable import DeepLinks
import Testing

/// Finding bytes a word at a time gives the offsets a byte-by-byte search gives.
@Suite("Word scan")
struct WordScanTests {
    @Test("first index of one byte, of either of two bytes, and of either or a non-ASCII byte, on every range of random buffers")
    func agreesWithByteSearch() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        // Bytes chosen so that searched ones sit next to bytes one below or above them (`%` 0x25 and
        // `&` 0x26, `+` 0x2B), and to zero and 0x80, where borrows between bytes could mislead.
        let alphabet: [UInt8] = [0x00, 0x01, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2C, 0x3D, 0x61, 0x7F, 0x80, 0x81, 0xFF]
        for _ in 0..<300 {
            let bytes = (0..<Int(next() % 40)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for start in 0...bytes.count {
                    for end in start...bytes.count {
                        let one = bytes[start..<end].firstIndex(of: 0x26) ?? end
                        #expect(WordScan.firstIndex(of: 0x26, in: base, from: start, to: end) == one)
                        let either = bytes[start..<end].firstIndex { $0 == 0x25 || $0 == 0x2B } ?? end
                        #expect(WordScan.firstIndex(of: 0x25, or: 0x2B, in: base, from: start, to: end) == either)
                        let eitherOrNonASCII = bytes[start..<end].firstIndex { $0 == 0x25 || $0 == 0x2B || $0 >= 0x80 } ?? end
                        #expect(WordScan.firstIndex(ofNonASCIIOr: 0x25, or: 0x2B, in: base, from: start, to: end) == eitherOrNonASCII)
                    }
                }
            }
        }
    }
}
