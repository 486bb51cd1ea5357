@testable import DeepLinks
import Testing

/// The dispatch index finds exactly the keys it holds, whichever way it hashes them.
@Suite("Dispatch index")
struct DispatchIndexTests {
    /// Looks `key` up as a whole-subject first-segment key.
    private func lookup(_ index: DispatchIndex, _ key: String) -> Int {
        var key = key
        return key.withUTF8 { bytes in
            index.candidateSet(for: bytes, schemeEnd: 0, pathStart: 0, firstSegmentEnd: bytes.count, hasAuthority: true)
        }
    }

    @Test("keys that differ only where the sampled hash does not read make it hash whole keys")
    func sampledCollisionsHashWholeKeys() {
        // 40 bytes: the sampled hash reads bytes 0..<8, 16..<24 and 32..<40; these differ at bytes 10 and 11.
        let keys = (0..<50).map { number in
            "https://ex" + String(number + 10) + "ample.com/res/abcdefghijklmn"
        }
        #expect(keys.allSatisfy { $0.utf8.count == 40 })
        let index = DispatchIndex(keys: keys.enumerated().map { (Array($1.utf8), $0) }, fallback: -1)
        #expect(index.hashesWholeKeys)
        for (number, key) in keys.enumerated() { #expect(lookup(index, key) == number) }
        #expect(lookup(index, "https://ex99ample.com/res/abcdefghijklmn") == -1)
        #expect(lookup(index, "https://ex10ample.com/res/abcdefghijklmo") == -1)
    }

    @Test("typical keys keep the sampled hash and are all found, of every length")
    func sampledHashFindsEveryKey() {
        var keys: [String] = []
        for family in 0..<400 {
            keys.append(family % 2 == 0 ? "myapp://res\(family)" : "https://app\(family % 5).example.com/res\(family)")
        }
        keys += ["a:", "ab:", "x://h", "myapp://t", "https://e.co/abcdefg"]
        let index = DispatchIndex(keys: keys.enumerated().map { (Array($1.utf8), $0) }, fallback: -1)
        #expect(!index.hashesWholeKeys)
        for (number, key) in keys.enumerated() { #expect(lookup(index, key) == number, "\(key)") }
        for missing in ["myapp://res1", "https://app0.example.com/res10", "myapp://res4000", "a", "https://e.co/abcdefh"] {
            #expect(lookup(index, missing) == -1, "\(missing)")
        }
    }
}
