/// Finds the candidate set for a subject from its scheme, host and first segment, without
/// running any pattern: an open-addressing hash table over byte-string keys, probed with an FNV-1a
/// hash computed in one pass over the subject's prefix.
struct DispatchIndex: Sendable {
    private struct Entry: Sendable {
        let hash: UInt64
        let keyStart: Int32
        let keyLength: Int32
        let candidateSet: Int32
    }

    private let entries: [Entry]
    /// All keys, back to back.
    private let keyBytes: [UInt8]
    /// Entry index + 1 per slot; 0 is empty. The count is a power of two.
    private let slots: [Int32]
    /// The candidate set for subjects no key covers (routes with no literal scheme).
    let fallback: Int32

    /// Builds the index from `keys` (each mapped to a candidate set index).
    init(keys: [(key: [UInt8], candidateSet: Int)], fallback: Int) {
        self.fallback = Int32(fallback)
        var keyBytes: [UInt8] = []
        let entries = keys.map { key in
            defer { keyBytes += key.key }
            return Entry(hash: DispatchIndex.hash(key.key), keyStart: Int32(keyBytes.count), keyLength: Int32(key.key.count),
                         candidateSet: Int32(key.candidateSet))
        }
        self.keyBytes = keyBytes
        var capacity = 8
        while capacity < entries.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: 0, count: capacity)
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(index + 1)
        }
        self.entries = entries
        self.slots = slots
    }

    /// The candidate set for a canonical subject: the most specific of its first segment, host and
    /// scheme keys that the index holds.
    @inline(__always)
    func candidateSet(for subject: UnsafeBufferPointer<UInt8>, schemeEnd: Int, pathStart: Int, firstSegmentEnd: Int,
                      hasAuthority: Bool) -> Int {
        var hash: UInt64 = DispatchIndex.offsetBasis
        var schemeHash: UInt64 = 0
        var hostHash: UInt64 = 0
        var segmentHash: UInt64 = 0
        let end = hasAuthority && firstSegmentEnd > pathStart ? firstSegmentEnd : (hasAuthority ? pathStart : schemeEnd + 1)
        for index in 0..<end {
            hash = (hash ^ UInt64(subject[index])) &* DispatchIndex.prime
            if index == schemeEnd { schemeHash = hash }
            if index == pathStart - 1 { hostHash = hash }
        }
        segmentHash = hash
        if hasAuthority, firstSegmentEnd > pathStart,
           let found = lookup(segmentHash, UnsafeBufferPointer(rebasing: subject[0..<firstSegmentEnd])) { return found }
        if hasAuthority, let found = lookup(hostHash, UnsafeBufferPointer(rebasing: subject[0..<pathStart])) { return found }
        if let found = lookup(schemeHash, UnsafeBufferPointer(rebasing: subject[0...schemeEnd])) { return found }
        return Int(fallback)
    }

    @inline(__always)
    private func lookup(_ hash: UInt64, _ key: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        return slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                keyBytes.withUnsafeBufferPointer { keyBytes in
                    while true {
                        let entryIndex = Int(slots[slot])
                        if entryIndex == 0 { return nil }
                        let entry = entries[entryIndex - 1]
                        if entry.hash == hash, Int(entry.keyLength) == key.count,
                           memoryEqual(keyBytes.baseAddress! + Int(entry.keyStart), key.baseAddress!, key.count) {
                            return Int(entry.candidateSet)
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    @inline(__always)
    private func memoryEqual(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for index in 0..<count where lhs[index] != rhs[index] { return false }
        return true
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    static func hash(_ key: [UInt8]) -> UInt64 {
        var hash = offsetBasis
        for byte in key { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }
}
