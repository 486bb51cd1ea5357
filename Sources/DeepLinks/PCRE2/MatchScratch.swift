import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's PCRE2 match data and subject buffer, reused across matches.
///
/// PCRE2 match data may be reused with any compiled pattern but must not be shared between
/// threads, so each thread gets its own, kept in a POSIX thread-specific slot and freed when the
/// thread exits. It grows when a table needs more capture slots than it has. The subject buffer
/// is where `RouteTable.match` writes a URL's canonical subject; it grows to the longest URL seen
/// (at most the canonicalizer's URL limit).
final class MatchScratch {
    private(set) var matchData: OpaquePointer
    private(set) var pairs: Int
    private var buffer: UnsafeMutableBufferPointer<UInt8> = .allocate(capacity: 512)

    private init(pairs: Int) {
        self.pairs = pairs
        guard let data = pcre2_match_data_create_8(UInt32(pairs), nil) else {
            preconditionFailure("pcre2_match_data_create: out of memory")
        }
        self.matchData = data
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        buffer.deallocate()
    }

    /// The subject buffer, with room for at least `capacity` bytes. Its contents are the caller's
    /// until the thread's next match.
    @inline(__always)
    func subjectBuffer(capacity: Int) -> UnsafeMutableBufferPointer<UInt8> {
        if buffer.count < capacity {
            buffer.deallocate()
            buffer = .allocate(capacity: max(capacity, 2 * buffer.count))
        }
        return buffer
    }

    /// The ovector: start/end byte offset pairs, group 0 first.
    var ovector: UnsafeMutablePointer<Int> { pcre2_get_ovector_pointer_8(matchData) }

    /// The name of the last `(*MARK)` passed on the matching path, as bytes, or nil.
    var mark: UnsafeBufferPointer<UInt8>? {
        guard let mark = pcre2_get_mark_8(matchData) else { return nil }
        // The mark's length is stored in the code unit just before it.
        return UnsafeBufferPointer(start: mark, count: Int(mark[-1]))
    }

    /// The calling thread's scratch, with room for at least `minimumPairs` ovector pairs.
    @inline(__always)
    static func current(minimumPairs: Int) -> MatchScratch {
        if let raw = pthread_getspecific(scratchKey) {
            let scratch = Unmanaged<MatchScratch>.fromOpaque(raw).takeUnretainedValue()
            if scratch.pairs >= minimumPairs { return scratch }
            scratch.grow(to: minimumPairs)
            return scratch
        }
        let scratch = MatchScratch(pairs: max(minimumPairs, 16))
        pthread_setspecific(scratchKey, Unmanaged.passRetained(scratch).toOpaque())
        return scratch
    }

    private func grow(to minimumPairs: Int) {
        pcre2_match_data_free_8(matchData)
        pairs = max(minimumPairs, pairs * 2)
        guard let data = pcre2_match_data_create_8(UInt32(pairs), nil) else {
            preconditionFailure("pcre2_match_data_create: out of memory")
        }
        matchData = data
    }
}

/// Match data belongs to one thread.
@available(*, unavailable)
extension MatchScratch: Sendable {}

/// The thread-specific slot holding each thread's `MatchScratch`; its destructor releases it.
private let scratchKey: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key) { raw in
        guard let raw else { return }
        Unmanaged<MatchScratch>.fromOpaque(raw).release()
    }
    precondition(rc == 0, "pthread_key_create failed: \(rc)")
    return key
}()
