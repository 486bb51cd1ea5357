/// Finds the candidate set for a subject from its scheme, host and first segment, without
/// running any pattern: an open-addressing hash table over byte-string keys.
///
/// The hash reads three words of a key (its first, middle and last eight bytes) and its length,
/// which tells apart the keys of real tables (they differ at the end: `.../task` and
/// `.../project`, `res12` and `res13`) in a few instructions. A table where two keys still hash
/// alike that way (keys equal in those words and in length) hashes every byte instead, so no
/// table gets long probe chains; lookups compare the whole key either way.
///
/// The entries live in the slots themselves (a slot read gives the hash to compare and the answer,
/// where a slot holding an entry's index cost a second dependent load on every lookup), in buffers
/// written once in `init`, so a lookup follows and counts no references.
final class DispatchIndex: @unchecked Sendable {
    // @unchecked Sendable: the buffers are written only in init and freed in deinit.

    fileprivate struct Entry {
        /// `keyLength` of a free slot: no key is this long.
        static let freeKeyLength: Int32 = -1
        /// A free slot's entry.
        static let free = Entry(hash: 0, keyStart: 0, keyLength: freeKeyLength, candidateSet: 0, slashes: 0, isVerbatim: false,
                                firstSlot: 0, slotCount: 0)

        let hash: UInt64
        let keyStart: Int32
        let keyLength: Int32
        let candidateSet: Int32
        /// The number of `/` in the key.
        let slashes: UInt16
        /// Whether the key is, byte for byte, the start of URLs `URLCanonicalizer.verbatimLayout`
        /// accepts (see `verbatimKey`).
        let isVerbatim: Bool
        /// The key's slots in its `SegmentCountIndex` (see `SegmentCountIndex.slotRange(ofKey:)`):
        /// kept here, so that verbatim dispatch goes from this entry to the candidate set in one load.
        let firstSlot: Int32
        let slotCount: UInt8

        /// Whether the slot holds no key.
        var isFree: Bool { keyLength == Self.freeKeyLength }
    }

    /// What `slotIndex` answers when the index does not hold the key (slots are numbered from 0).
    private static let noSlot = -1

    /// All keys, back to back.
    private let keyBytes: UnsafeMutableBufferPointer<UInt8>
    /// The keys' entries, each in the first free slot from its hash on; `Entry.free` elsewhere.
    /// The count is a power of two, 2^(64 - `slotShift`), at least twice the number of keys.
    private let slots: UnsafeMutableBufferPointer<Entry>
    /// A key's first slot is the top bits of its hash (`hash >> slotShift`): they depend on every
    /// bit the hash read, where the low bits of a multiplication depend only on low input bits.
    private let slotShift: UInt64
    /// The candidate set for subjects no key covers (routes with no literal scheme).
    let fallback: Int32
    /// Bit `n % 64` is set when some key is `n` bytes long: most lookups of a length no key has
    /// stop here, without hashing.
    private let keyLengths: UInt64
    /// Whether keys are hashed whole (some keys collide on the sampled words).
    let hashesWholeKeys: Bool

    /// Builds the index from `keys` (each mapped to a candidate set index: a key of `segmentCounts`,
    /// when given, whose slots the entries then carry).
    init(keys: [(key: [UInt8], candidateSet: Int)], fallback: Int, segmentCounts: SegmentCountIndex? = nil) {
        self.fallback = Int32(fallback)
        self.keyLengths = keys.reduce(0) { $0 | 1 << (UInt64($1.key.count) & 63) }
        let sampledHashes = keys.map { DispatchIndex.hash($0.key, whole: false) }
        let hashesWholeKeys = Set(sampledHashes).count < keys.count
        self.hashesWholeKeys = hashesWholeKeys
        var keyBytes: [UInt8] = []
        let entries = keys.map { key in
            defer { keyBytes += key.key }
            let slashes = key.key.count { $0 == UInt8(ascii: "/") }
            let slots = segmentCounts?.slotRange(ofKey: key.candidateSet) ?? (first: 0, count: 0)
            return Entry(hash: DispatchIndex.hash(key.key, whole: hashesWholeKeys), keyStart: Int32(keyBytes.count),
                         keyLength: Int32(key.key.count), candidateSet: Int32(key.candidateSet),
                         slashes: UInt16(clamping: slashes), isVerbatim: slashes <= UInt16.max && DispatchIndex.isVerbatim(key.key),
                         firstSlot: Int32(slots.first), slotCount: UInt8(slots.count))
        }
        var capacity = 8
        while capacity < entries.count * 2 { capacity *= 2 }
        let slotShift = UInt64(64 - capacity.trailingZeroBitCount)
        self.slotShift = slotShift
        var slots = [Entry](repeating: .free, count: capacity)
        for entry in entries {
            var slot = Int(truncatingIfNeeded: entry.hash >> slotShift)
            while !slots[slot].isFree { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = entry
        }
        self.keyBytes = .copying(keyBytes)
        self.slots = .copying(slots)
    }

    deinit {
        keyBytes.deallocate()
        slots.deallocate()
    }

    /// The candidate set for a canonical subject: the most specific of its first segment, host and
    /// scheme keys that the index holds.
    @inline(__always)
    func candidateSet(for subject: UnsafeBufferPointer<UInt8>, schemeEnd: Int, pathStart: Int, firstSegmentEnd: Int,
                      hasAuthority: Bool) -> Int {
        guard let base = subject.baseAddress else { return Int(fallback) }
        if hasAuthority, firstSegmentEnd > pathStart, let found = lookup(base, count: firstSegmentEnd) { return found }
        if hasAuthority, let found = lookup(base, count: pathStart) { return found }
        if let found = lookup(base, count: schemeEnd + 1) { return found }
        return Int(fallback)
    }

    /// Whether some key is `count` bytes long (false means no lookup of that length can succeed).
    @inline(__always)
    func mayHoldKey(ofLength count: Int) -> Bool {
        keyLengths & (1 << (UInt64(truncatingIfNeeded: count) & 63)) != 0
    }

    /// What `verbatimKey` found, in two words that come back in registers (an enum with a payload
    /// came back through memory).
    struct FoundKey {
        /// The key's candidate set (a key of `SegmentCountIndex`) and its number of `/`, in 48 and
        /// 16 bits, so not negative; `missingKey` or `notVerbatimKey` otherwise.
        private let key: Int
        /// The key's first slot in its `SegmentCountIndex` and its number of slots, in 56 and 8 bits.
        private let slots: Int

        /// `key` when the index holds no such key.
        private static let missingKey = -1
        /// `key` when the index holds the key but URLs starting with it are not verbatim.
        private static let notVerbatimKey = -2

        /// The index holds no such key.
        static var missing: FoundKey { FoundKey(key: missingKey, slots: 0) }
        /// The index holds the key, but URLs starting with it are not verbatim.
        static var notVerbatim: FoundKey { FoundKey(key: notVerbatimKey, slots: 0) }

        private init(key: Int, slots: Int) {
            self.key = key
            self.slots = slots
        }

        @inline(__always)
        fileprivate init(_ entry: Entry) {
            key = Int(entry.candidateSet) &<< 16 | Int(entry.slashes)
            slots = Int(entry.firstSlot) &<< 8 | Int(entry.slotCount)
        }

        var isMissing: Bool { key == Self.missingKey }
        /// Whether a key was found and URLs starting with it are verbatim.
        var isFound: Bool { key >= 0 }
        /// The key's candidate set, a key of `SegmentCountIndex`.
        var candidateSet: Int { key &>> 16 }
        /// The number of `/` in the key.
        var slashes: Int { key & 0xFFFF }
        /// The key's first slot in its `SegmentCountIndex`.
        var firstSlot: Int { slots &>> 8 }
        /// The key's number of slots in its `SegmentCountIndex` (0 when the index was built without one).
        var slotCount: Int { slots & 0xFF }
    }

    /// Looks up a URL's dispatch key for `MatchPlan.verbatimDispatch`, which has compared no byte
    /// of it: its first-segment key `url[0..<firstSegmentEnd]` when there is one, else (or when the
    /// index does not hold it) its host key `url[0..<pathStart]`. When the index holds a key, those
    /// bytes are the key's, whose verbatim checks (scheme and host in lower case, no byte that
    /// needs work) were made when building. (Both lookups in one call: a call for each cost
    /// saving and restoring the caller's registers twice.)
    /// - Returns: what was found, and the length of the key looked up last.
    @inline(never)
    func verbatimKey(_ url: UnsafePointer<UInt8>, firstSegmentEnd: Int, pathStart: Int) -> (found: FoundKey, keyEnd: Int) {
        // One copy of the lookup, run at most twice.
        var keyEnd = firstSegmentEnd > pathStart && mayHoldKey(ofLength: firstSegmentEnd) ? firstSegmentEnd : pathStart
        while true {
            let found = mayHoldKey(ofLength: keyEnd) ? verbatimKey(url, count: keyEnd) : .missing
            if !found.isMissing || keyEnd == pathStart { return (found, keyEnd) }
            keyEnd = pathStart
        }
    }

    /// `verbatimKey` for the key `key[0..<count]`.
    @inline(__always)
    private func verbatimKey(_ key: UnsafePointer<UInt8>, count: Int) -> FoundKey {
        let slot = slotIndex(key, count: count)
        guard slot != Self.noSlot else { return .missing }
        let entry = slots[slot]
        guard entry.isVerbatim else { return .notVerbatim }
        return FoundKey(entry)
    }

    /// Whether a key is already canonical as the start of a URL: `verbatimLayout` accepts it whole,
    /// as its own subject with no query.
    private static func isVerbatim(_ key: [UInt8]) -> Bool {
        key.withUnsafeBufferPointer { bytes in
            guard let layout = URLCanonicalizer().verbatimLayout(bytes) else { return false }
            return layout.length == bytes.count && layout.queryRange == nil && layout.hasAuthority
        }
    }

    /// The candidate set of the key `key[0..<count]`, if the index holds that key.
    @inline(__always)
    private func lookup(_ key: UnsafePointer<UInt8>, count: Int) -> Int? {
        let slot = slotIndex(key, count: count)
        return slot != Self.noSlot ? Int(slots[slot].candidateSet) : nil
    }

    /// The slot holding the key `key[0..<count]`, or `noSlot`.
    @inline(__always)
    private func slotIndex(_ key: UnsafePointer<UInt8>, count: Int) -> Int {
        guard mayHoldKey(ofLength: count) else { return Self.noSlot }
        let hash = hashesWholeKeys ? DispatchIndex.hash(key, count: count) : DispatchIndex.sampledHash(key, count: count)
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: hash &>> slotShift)
        while true {
            let entry = slots[slot]
            if entry.isFree { return Self.noSlot }
            if entry.hash == hash, Int(entry.keyLength) == count, WordScan.equal(keyBytes.baseAddress! + Int(entry.keyStart), key, count: count) {
                return slot
            }
            slot = (slot &+ 1) & mask
        }
    }

    static func hash(_ key: [UInt8], whole: Bool) -> UInt64 {
        key.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
            return whole ? hash(base, count: buffer.count) : sampledHash(base, count: buffer.count)
        }
    }

    /// A hash of the first, middle and last eight bytes of `count` bytes at `key` (all of a
    /// shorter key) and of `count`.
    @inline(__always)
    static func sampledHash(_ key: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var hash = lastWord(key, count: count) ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        if count > 8 {
            let raw = UnsafeRawPointer(key)
            let first = raw.loadUnaligned(as: UInt64.self)
            let middle = raw.loadUnaligned(fromByteOffset: (count - 8) / 2, as: UInt64.self)
            hash ^= (first &* 0xBF58_476D_1CE4_E5B9) ^ ((middle << 29) | (middle >> 35))
        }
        // No finalizing shift: the index takes the top bits, which the multiplication mixes every
        // input bit into (a final `hash ^ hash >> 29` changed no slot of an index under 2^29 slots
        // and lengthened every lookup).
        return hash &* 0x94D0_49BB_1331_11EB
    }

    /// A hash of `count` bytes at `key`, mixed eight bytes at a time (the last word overlapping
    /// the one before it), then finalized.
    @inline(__always)
    static func hash(_ key: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
        var offset = 0
        let raw = UnsafeRawPointer(key)
        while offset + 8 < count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        hash = (hash ^ lastWord(key, count: count)) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 29
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash >> 32)
    }

    /// The last eight bytes of `key`, or all of a shorter key (zero-extended).
    @inline(__always)
    static func lastWord(_ key: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        if count >= 8 { return UnsafeRawPointer(key).loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) }
        var word: UInt64 = 0
        for index in 0..<count { word |= UInt64(key[index]) << UInt64(8 * index) }
        return word
    }
}
