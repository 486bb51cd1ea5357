/// Splits a dispatch key's candidates by the number of `/` in the subject, which for routes of one
/// key means by the number of path segments: `myapp://res0/42` and `myapp://res0/42/edit` then
/// reach different, smaller candidate sets.
///
/// A route whose pattern can match subjects with different numbers of `/` (see
/// `PatternScanner.slashCount`) is a candidate in every bucket of its key, and in the key's set for
/// other counts, so each bucket keeps exactly the routes that could match, in table order.
final class SegmentCountIndex: @unchecked Sendable {
    // @unchecked Sendable: the buffers are written only in init and freed in deinit.

    /// The buckets of one dispatch key (a candidate set index of `DispatchIndex`).
    struct Key {
        /// The key's candidate set for 0, 1, ... `/`: `slots[firstSlot ..< firstSlot + slotCount]`,
        /// for keys whose buckets are all below `maxSlots` `/` (nearly all: then `bucketCount` is 0).
        let firstSlot: Int32
        let slotCount: Int32
        /// Buckets searched in turn, for a key with a bucket of `maxSlots` `/` or more.
        let firstBucket: Int32
        let bucketCount: Int32
        /// The candidate set for subjects no bucket covers, and for every subject when there are no buckets.
        let otherCounts: Int32
    }

    /// A slot: the candidate set, and the set's one route when it has one (`.notAlone` otherwise),
    /// so that matching reads the route from the slot instead of looking it up by set (a dependent
    /// load, a cache miss of its own in a table of thousands of routes).
    struct Slot {
        let candidateSet: Int32
        let loneRoute: LoneRoute
    }

    struct Bucket {
        /// The number of `/` in the subject.
        let slashes: Int32
        let candidateSet: Int32
    }

    /// The longest run of slots a key gets; a key with a bucket beyond it keeps a list to search.
    static let maxSlots = 64

    private let keys: UnsafeMutableBufferPointer<Key>
    /// Per key, the candidate set by number of `/` (a direct index: no search, no branch on the count).
    private let slots: UnsafeMutableBufferPointer<Slot>
    private let buckets: UnsafeMutableBufferPointer<Bucket>

    /// - Parameters:
    ///   - keys: Per dispatch key, its buckets (slash count, candidate set) and the set for other counts.
    ///   - loneRoutes: Per candidate set, its one route, or `.notAlone`.
    init(keys: [(buckets: [(slashes: Int, candidateSet: Int)], otherCounts: Int)], loneRoutes: [LoneRoute]) {
        var slots: [Slot] = []
        var flat: [Bucket] = []
        let entries = keys.map { key in
            let span = (key.buckets.map(\.slashes).max() ?? -1) + 1
            if span <= Self.maxSlots {
                var own = [Slot](repeating: Slot(candidateSet: Int32(key.otherCounts), loneRoute: loneRoutes[key.otherCounts]),
                                 count: span)
                for bucket in key.buckets {
                    own[bucket.slashes] = Slot(candidateSet: Int32(bucket.candidateSet), loneRoute: loneRoutes[bucket.candidateSet])
                }
                defer { slots += own }
                return Key(firstSlot: Int32(slots.count), slotCount: Int32(span), firstBucket: 0, bucketCount: 0,
                           otherCounts: Int32(key.otherCounts))
            }
            defer { flat += key.buckets.map { Bucket(slashes: Int32($0.slashes), candidateSet: Int32($0.candidateSet)) } }
            return Key(firstSlot: 0, slotCount: 0, firstBucket: Int32(flat.count), bucketCount: Int32(key.buckets.count),
                       otherCounts: Int32(key.otherCounts))
        }
        self.keys = .copying(entries)
        self.slots = .copying(slots)
        self.buckets = .copying(flat)
    }

    deinit {
        keys.deallocate()
        slots.deallocate()
        buckets.deallocate()
    }

    /// The candidate set for `subject` among those of dispatch key `key`.
    ///
    /// Before the path, a canonical subject has `//` when it has an authority (the scheme and host
    /// have no `/`); the first segment has a `/` only at its start. So only the rest is counted.
    @inline(__always)
    func candidateSet(key: Int, subject: UnsafeBufferPointer<UInt8>, layout: CanonicalLayout) -> Int {
        let entry = keys[key]
        guard entry.slotCount > 0 || entry.bucketCount > 0 else { return Int(entry.otherCounts) }
        var before = layout.hasAuthority ? 2 : 0
        if layout.firstSegmentEnd > layout.pathStart, subject[layout.pathStart] == UInt8(ascii: "/") { before &+= 1 }
        return bucket(of: entry, slashes: Self.slashCount(subject, from: layout.firstSegmentEnd) &+ before)
    }

    /// The candidate set for a subject with `slashes` `/` among those of dispatch key `key`, whose
    /// slots (`slotRange(ofKey:)`) its `DispatchIndex` entry carries, and the set's one route: one
    /// load when a slot covers the count. The route is `.unread` for a bucket past the slots.
    @inline(__always)
    func candidateSet(key: Int, slashes: Int, firstSlot: Int, slotCount: Int) -> (set: Int, loneRoute: LoneRoute) {
        if UInt(bitPattern: slashes) < UInt(slotCount) {
            let slot = slots[firstSlot &+ slashes]
            return (Int(slot.candidateSet), slot.loneRoute)
        }
        return (bucket(of: keys[key], slashes: slashes), .unread)
    }

    /// Where dispatch key `key`'s slots are, and how many it has (0 for a key with a list of
    /// buckets, or none).
    func slotRange(ofKey key: Int) -> (first: Int, count: Int) {
        (Int(keys[key].firstSlot), Int(keys[key].slotCount))
    }

    /// The bucket of `entry` for `count` `/`, or its set for other counts.
    @inline(__always)
    private func bucket(of entry: Key, slashes count: Int) -> Int {
        if UInt(bitPattern: count) < UInt(entry.slotCount) { return Int(slots[Int(entry.firstSlot) &+ count].candidateSet) }
        return searchedBucket(of: entry, slashes: count)
    }

    /// `bucket` past the key's slots: its list of buckets, if it has one, else its set for other counts.
    @inline(__always)
    private func searchedBucket(of entry: Key, slashes count: Int) -> Int {
        let slashes = Int32(truncatingIfNeeded: count)
        let first = Int(entry.firstBucket)
        for index in first..<(first + Int(entry.bucketCount)) where buckets[index].slashes == slashes {
            return Int(buckets[index].candidateSet)
        }
        return Int(entry.otherCounts)
    }

    /// The number of `/` bytes in `subject[start...]`, counted eight bytes at a time.
    @inline(__always)
    static func slashCount(_ subject: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int {
        let count = subject.count
        guard start < count, let base = subject.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var slashes = 0
        var offset = start
        while count &- offset > 8 {
            slashes &+= slashCount(inWord: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset &+= 8
        }
        // One to eight bytes are left: the last eight bytes, shifted so those before `offset` fall
        // out (zeros are not `/`), or, in a subject shorter than a word, one byte at a time.
        if count >= 8 {
            let word = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            return slashes &+ slashCount(inWord: word &>> UInt64(truncatingIfNeeded: 8 &* (8 &- (count &- offset))))
        }
        for index in offset..<count where base[index] == UInt8(ascii: "/") { slashes &+= 1 }
        return slashes
    }

    /// The number of `/` bytes in a word.
    @inline(__always)
    private static func slashCount(inWord word: UInt64) -> Int {
        WordScan.markedByteCount(WordScan.exactZeroBytes(word ^ WordScan.repeated(UInt8(ascii: "/"))))
    }
}
