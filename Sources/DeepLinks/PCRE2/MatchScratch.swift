import CDeepLinks
import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's PCRE2 match data and subject buffer, reused across matches.
///
/// PCRE2 match data may be reused with any compiled pattern but must not be shared between
/// threads, so each thread gets its own, kept in a POSIX thread-specific slot and freed by the
/// slot's destructor when the thread exits. A C thread-local variable (`cdeeplinks_thread_scratch`)
/// points to it too, and is what a match reads: a load, where `pthread_getspecific` is a call. It
/// grows when a table needs more capture slots than it has. The subject buffer is where `RouteTable.match` writes a URL's canonical subject; it grows
/// to the longest URL seen (at most the canonicalizer's URL limit).
///
/// A `MatchScratch` is a plain handle to that thread-owned storage (no reference counting on the
/// hot path); it is valid on its thread only, until the thread exits.
struct MatchScratch {
    /// What the thread-specific slot points to.
    private struct Storage {
        var matchData: OpaquePointer
        /// `matchData`'s ovector, which stays where it is for the match data's life.
        var ovector: UnsafeMutablePointer<Int>
        var pairs: Int
        var buffer: UnsafeMutableBufferPointer<UInt8>
    }

    private let storage: UnsafeMutablePointer<Storage>

    /// The thread's match data.
    var matchData: OpaquePointer { storage.pointee.matchData }

    /// The subject buffer, with room for at least `capacity` bytes. Its contents are the caller's
    /// until the thread's next match.
    @inline(__always)
    func subjectBuffer(capacity: Int) -> UnsafeMutableBufferPointer<UInt8> {
        if storage.pointee.buffer.count < capacity {
            let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(capacity, 2 * storage.pointee.buffer.count))
            storage.pointee.buffer.deallocate()
            storage.pointee.buffer = grown
        }
        return storage.pointee.buffer
    }

    /// The ovector: start/end byte offset pairs, group 0 first.
    var ovector: UnsafeMutablePointer<Int> { storage.pointee.ovector }

    /// The byte range of capture group `group` (1-based) in the last match's ovector, or nil when
    /// the group did not take part.
    func span(ofGroup group: Int) -> Range<Int>? {
        let start = ovector[2 * group], end = ovector[2 * group + 1]
        return start == cpcre2_unset() || end < start ? nil : start..<end
    }

    /// The name of the last `(*MARK)` passed on the matching path, as bytes, or nil.
    var mark: UnsafeBufferPointer<UInt8>? {
        guard let mark = pcre2_get_mark_8(matchData) else { return nil }
        // The mark's length is stored in the code unit just before it.
        return UnsafeBufferPointer(start: mark, count: Int(mark[-1]))
    }

    /// The calling thread's scratch, with room for at least `minimumPairs` ovector pairs.
    @inline(__always)
    static func current(minimumPairs: Int) -> MatchScratch {
        if let raw = cdeeplinks_thread_scratch() {
            let scratch = MatchScratch(storage: raw.assumingMemoryBound(to: Storage.self))
            if scratch.storage.pointee.pairs < minimumPairs { scratch.grow(to: minimumPairs) }
            return scratch
        }
        return make(minimumPairs: minimumPairs)
    }

    /// The calling thread's first scratch (or its first after the slot's destructor freed one).
    @inline(never)
    private static func make(minimumPairs: Int) -> MatchScratch {
        let pairs = max(minimumPairs, 1)
        let storage = UnsafeMutablePointer<Storage>.allocate(capacity: 1)
        let matchData = createMatchData(pairs: pairs)
        storage.initialize(to: Storage(matchData: matchData, ovector: pcre2_get_ovector_pointer_8(matchData), pairs: pairs,
                                       buffer: .allocate(capacity: 512)))
        let rc = pthread_setspecific(scratchKey, storage)
        precondition(rc == 0, "pthread_setspecific failed: \(rc)")
        cdeeplinks_set_thread_scratch(storage)
        return MatchScratch(storage: storage)
    }

    private func grow(to minimumPairs: Int) {
        pcre2_match_data_free_8(storage.pointee.matchData)
        storage.pointee.pairs = max(minimumPairs, storage.pointee.pairs * 2)
        storage.pointee.matchData = Self.createMatchData(pairs: storage.pointee.pairs)
        storage.pointee.ovector = pcre2_get_ovector_pointer_8(storage.pointee.matchData)
    }

    private static func createMatchData(pairs: Int) -> OpaquePointer {
        guard let data = pcre2_match_data_create_8(UInt32(pairs), nil) else {
            preconditionFailure("pcre2_match_data_create: out of memory")
        }
        return data
    }

    /// Frees a thread's storage when the thread exits.
    fileprivate static func free(_ raw: UnsafeMutableRawPointer) {
        // Runs on the exiting thread: a match after this (from another key's destructor) starts anew.
        cdeeplinks_set_thread_scratch(nil)
        let storage = raw.assumingMemoryBound(to: Storage.self)
        pcre2_match_data_free_8(storage.pointee.matchData)
        storage.pointee.buffer.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }
}

/// Match data belongs to one thread.
@available(*, unavailable)
extension MatchScratch: Sendable {}

/// The thread-specific slot holding each thread's scratch storage; its destructor frees it.
private let scratchKey: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key) { raw in
        guard let raw else { return }
        MatchScratch.free(raw)
    }
    precondition(rc == 0, "pthread_key_create failed: \(rc)")
    return key
}()
