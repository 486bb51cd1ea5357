/// What a route's pattern says about the start of every subject it matches: its literal prefix and
/// the bytes that can follow it. `CandidateSieve` tests it per subject; building a table, per
/// dispatch key (`canStart(afterKey:)`).
struct RouteStart: Sendable {
    let prefix: [UInt8]
    /// Nil when unknown.
    let next: ByteSet?
    /// Whether the prefix is the whole pattern: the route matches that subject and no other.
    let isLiteral: Bool

    /// What `pattern` says.
    init(pattern: String) {
        (prefix, isLiteral) = PatternScanner.literalPrefix(pattern)
        next = PatternScanner.firstBytesAfterLiteralPrefix(pattern)
    }

    /// Whether some subject dispatched to `key`, a host or first-segment key, can start this way.
    /// Such a subject is the key followed by `/` or by nothing (a query is not part of the subject).
    func canStart(afterKey key: [UInt8]) -> Bool {
        if prefix.count > key.count {
            return prefix.starts(with: key) && prefix[key.count] == UInt8(ascii: "/")
        }
        guard key.starts(with: prefix) else { return false }
        guard let next else { return true }
        // The subject's byte after the prefix: the key's, or the `/` after the key (none at its end,
        // but a known next set means the pattern needs one).
        return next.contains(prefix.count < key.count ? key[prefix.count] : UInt8(ascii: "/"))
    }
}
