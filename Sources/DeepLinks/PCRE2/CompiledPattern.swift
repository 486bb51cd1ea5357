import CPCRE2

/// A PCRE2 pattern compiled (and, where PCRE2 supports it, JIT-compiled) for matching UTF-8 bytes.
///
/// Owns its `pcre2_code` and frees it in `deinit`. JIT compilation writes into the code, so it
/// happens in `init`, before the pattern can be shared; afterwards PCRE2 only reads it.
/// See [pcre2jit(3)](https://www.pcre.org/current/doc/html/pcre2jit.html).
final class CompiledPattern: @unchecked Sendable {
    // @unchecked Sendable: `code` is never mutated after init (JIT compilation happens in init),
    // and PCRE2 documents compiled code as safe to share between threads for matching.

    /// Options every route pattern is compiled with: UTF-8 where invalid sequences never match,
    /// only named groups capture, anchored at the start (the only anchoring `pcre2_jit_match` honours).
    static let routeOptions: UInt32 =
        PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_NO_AUTO_CAPTURE | PCRE2_ANCHORED

    let code: OpaquePointer
    /// The pattern text as compiled.
    let source: String
    /// Whether JIT compilation succeeded; if not, matching falls back to the interpreter.
    let isJITCompiled: Bool
    /// The highest capture group number.
    let captureCount: Int
    /// The named groups, by group number.
    let namedGroups: [(number: Int, name: String)]

    /// Compiles `source`.
    /// - Throws: `PCRE2Error` with PCRE2's message and the byte offset of the problem.
    init(_ source: String, options: UInt32) throws(PCRE2Error) {
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        let compiled = source.utf8.withContiguousStorageIfAvailable { bytes in
            pcre2_compile_8(bytes.baseAddress, bytes.count, options, &errorCode, &errorOffset, nil)
        } ?? Array(source.utf8).withUnsafeBufferPointer { bytes in
            pcre2_compile_8(bytes.baseAddress, bytes.count, options, &errorCode, &errorOffset, nil)
        }
        guard let compiled else {
            throw PCRE2Error(code: errorCode, pattern: source, offset: errorOffset, function: "pcre2_compile")
        }
        self.code = compiled
        self.source = source
        // JIT may be unavailable on this platform build of PCRE2; the interpreter still works.
        self.isJITCompiled = pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE) == 0
        self.captureCount = Int(CompiledPattern.info(compiled, PCRE2_INFO_CAPTURECOUNT))
        self.namedGroups = CompiledPattern.readNameTable(compiled)
    }

    deinit { pcre2_code_free_8(code) }

    /// The highest back reference number in the pattern (0 when there is none).
    var backReferenceMax: Int { Int(CompiledPattern.info(code, PCRE2_INFO_BACKREFMAX)) }

    /// Runs the pattern on `subject` with the calling thread's match data.
    ///
    /// - Returns: PCRE2's result: > 0 on a match (the ovector is in `scratch`), `PCRE2_ERROR_NOMATCH`,
    ///   or another negative error code (e.g. `PCRE2_ERROR_MATCHLIMIT`).
    /// - Parameter context: the match limit; nil for PCRE2's default.
    @inline(__always)
    func match(_ subject: UnsafeBufferPointer<UInt8>, scratch: MatchScratch, context: MatchLimits?) -> Int32 {
        if isJITCompiled {
            return pcre2_jit_match_8(code, subject.baseAddress, subject.count, 0, 0, scratch.matchData, context?.context)
        }
        return pcre2_match_8(code, subject.baseAddress, subject.count, 0, 0, scratch.matchData, context?.context)
    }

    /// Convenience for tests and slow paths: does the whole of `subject` match?
    func matches(_ subject: String, context: MatchLimits) -> Int32 {
        var bytes = Array(subject.utf8)
        let scratch = MatchScratch.current(minimumPairs: captureCount + 1)
        return bytes.withUnsafeMutableBufferPointer { match(UnsafeBufferPointer($0), scratch: scratch, context: context) }
    }

    private static func info(_ code: OpaquePointer, _ what: Int32) -> UInt32 {
        var value: UInt32 = 0
        let rc = pcre2_pattern_info_8(code, UInt32(what), &value)
        precondition(rc == 0, "pcre2_pattern_info(\(what)) failed: \(rc)")
        return value
    }

    private static func readNameTable(_ code: OpaquePointer) -> [(number: Int, name: String)] {
        let count = Int(info(code, PCRE2_INFO_NAMECOUNT))
        guard count > 0 else { return [] }
        let entrySize = Int(info(code, PCRE2_INFO_NAMEENTRYSIZE))
        var table: UnsafePointer<UInt8>?
        let rc = pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMETABLE), &table)
        precondition(rc == 0 && table != nil, "pcre2_pattern_info(NAMETABLE) failed: \(rc)")
        var groups: [(number: Int, name: String)] = []
        for index in 0..<count {
            // Each 8-bit entry: a 2-byte big-endian group number, then the NUL-terminated name.
            let entry = table!.advanced(by: index * entrySize)
            let number = Int(entry[0]) << 8 | Int(entry[1])
            let name = String(cString: entry + 2)
            groups.append((number, name))
        }
        return groups.sorted { $0.number < $1.number }
    }
}
