import CPCRE2

/// A PCRE2 match context carrying the match limit applied to every match of a route table.
///
/// Owns its `pcre2_match_context`. See `pcre2_set_match_limit` in
/// [pcre2api(3)](https://www.pcre.org/current/doc/html/pcre2api.html).
final class MatchLimits: @unchecked Sendable {
    // @unchecked Sendable: the context is configured in init and never changed afterwards;
    // PCRE2 documents an unchanged match context as shareable between threads.

    let context: OpaquePointer
    /// The limit on backtracking steps per match.
    let matchLimit: UInt32

    init(matchLimit: UInt32) {
        guard let context = pcre2_match_context_create_8(nil) else {
            preconditionFailure("pcre2_match_context_create: out of memory")
        }
        let rc = pcre2_set_match_limit_8(context, matchLimit)
        precondition(rc == 0, "pcre2_set_match_limit failed: \(rc)")
        self.context = context
        self.matchLimit = matchLimit
    }

    deinit { pcre2_match_context_free_8(context) }
}
