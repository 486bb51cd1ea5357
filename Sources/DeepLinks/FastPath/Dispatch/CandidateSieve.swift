/// Narrows a small candidate set, per subject and without running any pattern, to the routes whose
/// literal prefix the subject starts with and whose next byte the subject can continue with.
///
/// When one route remains, matching runs that route's own pattern instead of the set's `(*MARK)`
/// alternation (cheaper in PCRE2, and no mark to read); when none remains, no pattern runs. When
/// several remain, the set's chunks run as before, so priority order is the chunks' order. Sets
/// of one route are not sieved (`MatchPlan` runs the route's own pattern without asking).
final class CandidateSieve: @unchecked Sendable {
    // @unchecked Sendable: the buffers are written only in init and freed in deinit.

    /// Where a set's tests are.
    private struct SetTests {
        let first: Int32
        /// The number of routes, or `notSieved`.
        let count: Int32
        /// The prefix bytes every subject of the set has already shown to dispatch.
        let known: Int32

        /// `count` of a set too large to sieve.
        static let notSieved: Int32 = -1
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
    /// By candidate set.
    private let sets: UnsafeMutableBufferPointer<SetTests>
    private let prefixBytes: UnsafeMutableBufferPointer<UInt8>

    init(candidateSets: [CandidateSet], routes: [Route]) {
        let prefixes = routes.map(\.start.prefix)
        let nextBytes = routes.map(\.start.next)
        var bytes: [UInt8] = []
        var prefixStarts: [Int32] = []
        for prefix in prefixes {
            prefixStarts.append(Int32(bytes.count))
            bytes += prefix
        }
        var entries: [Entry] = []
        var sets: [SetTests] = []
        for set in candidateSets {
            // Dispatch compared the key, and chunks leave out the key bytes all the set's routes share.
            let known = Int32(set.chunks.map(\.start).min() ?? 0)
            guard set.routes.count <= Self.maxRoutes else {
                sets.append(SetTests(first: 0, count: SetTests.notSieved, known: 0))
                continue
            }
            sets.append(SetTests(first: Int32(entries.count), count: Int32(set.routes.count), known: known))
            for order in set.routes {
                entries.append(Entry(route: Int32(order), prefixStart: prefixStarts[order], prefixLength: Int32(prefixes[order].count),
                                     checksNext: nextBytes[order] != nil, next: nextBytes[order] ?? ByteSet()))
            }
        }
        self.entries = .copying(entries)
        self.sets = .copying(sets)
        self.prefixBytes = .copying(bytes)
    }

    deinit {
        entries.deallocate()
        sets.deallocate()
        prefixBytes.deallocate()
    }

    /// What is left of candidate set `set` for `subject`: the one route it could match, `.noneLeft`
    /// when it could match none, or `.several` (also for a set too large to sieve).
    @inline(__always)
    func survivors(of set: Int, subject: UnsafeBufferPointer<UInt8>) -> LoneRoute {
        let tests = sets[set]
        guard tests.count != SetTests.notSieved, let base = subject.baseAddress else { return .several }
        let known = Int(tests.known)
        var found = LoneRoute.noneLeft
        for index in Int(tests.first)..<Int(tests.first + tests.count) {
            let entry = entries[index]
            let length = Int(entry.prefixLength)
            guard length <= subject.count,
                  Self.prefixEqual(prefixBytes.baseAddress! + Int(entry.prefixStart), base, known: known, count: length) else { continue }
            if entry.checksNext, length < subject.count, !entry.next.contains(base[length]) { continue }
            if found.isRoute { return .several }
            found = LoneRoute(order: Int(entry.route))
        }
        return found
    }

    /// Whether `count` bytes at `prefix` and `subject` are equal, given that the first `known` are
    /// (or `count` is shorter): words from `known`, then the last word, which may overlap them.
    @inline(__always)
    private static func prefixEqual(_ prefix: UnsafePointer<UInt8>, _ subject: UnsafePointer<UInt8>, known: Int, count: Int) -> Bool {
        guard count >= 8, known <= count else { return WordScan.equal(prefix, subject, count: count) }
        let left = UnsafeRawPointer(prefix), right = UnsafeRawPointer(subject)
        var offset = known
        while offset + 8 < count {
            if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset += 8
        }
        return left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
}
