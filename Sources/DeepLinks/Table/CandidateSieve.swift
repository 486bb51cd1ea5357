/// Narrows a small candidate set, per subject and without running any pattern, to the routes whose
/// literal prefix the subject starts with and whose next byte the subject can continue with.
///
/// When one route remains, matching runs that route's own pattern instead of the set's `(*MARK)`
/// alternation (cheaper in PCRE2, and no mark to read); when none remains, no pattern runs. When
/// several remain, the set's chunks run as before, so priority order is the chunks' order.
final class CandidateSieve: @unchecked Sendable {
    // @unchecked Sendable: the buffers are written only in init and freed in deinit.

    /// What the sieve left of a candidate set.
    enum Survivors {
        /// No route of the set can match.
        case none
        /// Only this route (by order) can match.
        case one(Int)
        /// Several can, or the set is not sieved.
        case several
    }

    /// The test one route of a set must pass.
    private struct Entry {
        let route: Int32
        let prefixStart: Int32
        let prefixLength: Int32
        /// Whether the byte after the prefix must be in `next`.
        let checksNext: Bool
        let next: ByteSet
    }

    /// The largest set sieved: beyond it, testing every route costs more than the alternation saves.
    static let maxRoutes = 8

    private let entries: UnsafeMutableBufferPointer<Entry>
    /// Set `i` has entries `setStarts[2 * i]..<setStarts[2 * i + 1]`; a start of -1: the set is not sieved.
    private let setStarts: UnsafeMutableBufferPointer<Int32>
    private let prefixBytes: UnsafeMutableBufferPointer<UInt8>

    init(candidateSets: [CandidateSet], routes: [Route]) {
        let prefixes = routes.map { PatternScanner.literalPrefix($0.definition.pattern).prefix }
        let nextBytes = routes.map { PatternScanner.firstBytesAfterLiteralPrefix($0.definition.pattern) }
        var bytes: [UInt8] = []
        var prefixStarts: [Int32] = []
        for prefix in prefixes {
            prefixStarts.append(Int32(bytes.count))
            bytes += prefix
        }
        var entries: [Entry] = []
        var starts: [Int32] = []
        for set in candidateSets {
            guard set.routes.count <= Self.maxRoutes else { starts += [-1, Int32(entries.count)]; continue }
            starts += [Int32(entries.count), Int32(entries.count + set.routes.count)]
            for order in set.routes {
                entries.append(Entry(route: Int32(order), prefixStart: prefixStarts[order], prefixLength: Int32(prefixes[order].count),
                                     checksNext: nextBytes[order] != nil, next: nextBytes[order] ?? ByteSet()))
            }
        }
        self.entries = .allocate(capacity: max(entries.count, 1))
        _ = self.entries.initialize(from: entries)
        self.setStarts = .allocate(capacity: max(starts.count, 1))
        _ = self.setStarts.initialize(from: starts)
        self.prefixBytes = .allocate(capacity: max(bytes.count, 1))
        _ = self.prefixBytes.initialize(from: bytes)
    }

    deinit {
        entries.deallocate()
        setStarts.deallocate()
        prefixBytes.deallocate()
    }

    /// The routes of candidate set `set` that `subject` could match.
    @inline(__always)
    func survivors(of set: Int, subject: UnsafeBufferPointer<UInt8>) -> Survivors {
        let start = Int(setStarts[2 * set])
        guard start >= 0, let base = subject.baseAddress else { return .several }
        var found = -1
        for index in start..<Int(setStarts[2 * set + 1]) {
            let entry = entries[index]
            let length = Int(entry.prefixLength)
            guard length <= subject.count,
                  DispatchIndex.bytesEqual(prefixBytes.baseAddress! + Int(entry.prefixStart), base, count: length) else { continue }
            if entry.checksNext, length < subject.count, !entry.next.contains(base[length]) { continue }
            if found >= 0 { return .several }
            found = Int(entry.route)
        }
        return found < 0 ? .none : .one(found)
    }
}
