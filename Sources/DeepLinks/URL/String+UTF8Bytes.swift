extension String {
    /// Calls `body` with the string's UTF-8: its own bytes when they are contiguous (every native
    /// string), else those of a contiguous copy (a bridged string).
    ///
    /// Unlike the standard library's `withUTF8`, it does not mutate, so a router can read a URL it
    /// only borrows. `body` is one closure for both ways, so the optimizer keeps a large `body` as a
    /// closure called through a context instead of inlining it twice: `RouteMatch`'s readers, on
    /// every read, write the two ways out instead; `withMatch` and `referenceMatch` use this.
    @inlinable
    func withUTF8Bytes<Value>(_ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        if let value = utf8.withContiguousStorageIfAvailable(body) { return value }
        return Self.withCopiedUTF8(self, body)
    }

    /// `withUTF8Bytes` for a string whose UTF-8 is not contiguous (out of line: callers inline
    /// their usual case once).
    @usableFromInline @inline(never)
    static func withCopiedUTF8<Value>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        var copy = string
        return copy.withUTF8(body)
    }
}
