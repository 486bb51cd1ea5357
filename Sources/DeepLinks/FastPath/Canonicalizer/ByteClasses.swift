/// What the one-pass canonicalizer needs to know about each byte, looked up in one load: which
/// bytes end a run of plain scheme, host, path or query bytes, and each byte lower-cased.
struct ByteClasses: @unchecked Sendable {
    // @unchecked Sendable: `table` is filled in `init`, never written afterwards and never freed
    // (the only instance is the global `shared`), so any thread may read it.

    /// A scheme character (`ALPHA / DIGIT / "+" / "-" / "."`).
    static let scheme: UInt8 = 1
    /// Ends a run of plain host bytes: `/ ? #`, `@ % space` (refused) and control characters.
    static let hostStop: UInt8 = 2
    /// Ends a run of plain path bytes: `/ ? # %`, control characters and non-ASCII bytes (whose
    /// segment's UTF-8 must be checked).
    static let pathStop: UInt8 = 4
    /// Ends a run of plain query bytes: `& = # %`, control characters and non-ASCII bytes.
    static let queryStop: UInt8 = 8
    /// A character of an already canonical scheme: lower-case letter, digit, `+`, `-` or `.`.
    static let canonicalScheme: UInt8 = 16
    /// Ends a run of host bytes that canonicalization leaves as they are: `/ ? # % @ :` (the last
    /// two may need refusing or a default port removed), upper-case letters, space, control
    /// characters and non-ASCII bytes.
    static let canonicalHostStop: UInt8 = 32

    /// 256 class bytes, then 256 lower-cased bytes.
    let table: UnsafePointer<UInt8>

    static let shared = ByteClasses()

    private init() {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
        for value in 0..<256 {
            let byte = UInt8(value)
            var flags: UInt8 = 0
            if URLBytes.isSchemeCharacter(byte) { flags |= Self.scheme }
            let control = byte < 0x20 || byte == 0x7F
            if control || "/?#@% ".utf8.contains(byte) { flags |= Self.hostStop }
            if control || byte >= 0x80 || "/?#%".utf8.contains(byte) { flags |= Self.pathStop }
            if control || byte >= 0x80 || "&=#%".utf8.contains(byte) { flags |= Self.queryStop }
            if URLBytes.isSchemeCharacter(byte), URLBytes.lowercased(byte) == byte { flags |= Self.canonicalScheme }
            if control || byte >= 0x80 || "/?#%@: ".utf8.contains(byte) || URLBytes.lowercased(byte) != byte {
                flags |= Self.canonicalHostStop
            }
            table[value] = flags
            table[256 + value] = URLBytes.lowercased(byte)
        }
        self.table = UnsafePointer(table)
    }

    @inline(__always)
    func flags(_ byte: UInt8) -> UInt8 { table[Int(byte)] }

    @inline(__always)
    func lowercased(_ byte: UInt8) -> UInt8 { table[256 + Int(byte)] }
}
