/// Array parameters in PostgreSQL's binary array format, so a whole batch travels as one parameter of a set-based
/// statement (`… FROM unnest($1::text[], $2::int8[])`) instead of one statement per row.
///
/// The format is `array_send`'s: the number of dimensions (1, or 0 for an empty array), whether a NULL is present,
/// the element type's OID, then for the one dimension its length and lower bound (1), then each element as its
/// length (−1 for NULL) and its binary form. The server checks the element type against the parameter's declared
/// array type, so a mismatch is refused, never reinterpreted.
///
/// See [Arrays](https://www.postgresql.org/docs/15/arrays.html) and `array_recv` in PostgreSQL's `arrayfuncs.c`.
extension PostgresValue {
    /// The binary form of a one-dimensional array of `elements` (nil for NULL) whose type is `element` (`pg_type.oid`).
    static func arrayBinary(_ elements: [PostgresValue?], element: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + elements.count * 12)
        func append(_ value: Int32) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
        append(elements.isEmpty ? 0 : 1)
        append(elements.contains { $0 == nil } ? 1 : 0)
        append(Int32(bitPattern: element))
        if !elements.isEmpty {
            append(Int32(elements.count))
            append(1)
        }
        for element in elements {
            guard let binary = element?.binary else {
                append(-1)
                continue
            }
            append(Int32(binary.count))
            bytes += binary
        }
        return bytes
    }
}
