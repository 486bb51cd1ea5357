/// SQL written with SQLite's `?` placeholders, run on PostgreSQL, which numbers them.
package enum PostgresPlaceholders {
    /// `sql` with each `?` outside a quoted string or identifier written `$1`, `$2`, … in order.
    ///
    /// The stores that run one text of SQL on either database (the push store, the tap log's reports) pass every
    /// statement through this, so it walks the UTF-8 bytes: `?` and the quotes are ASCII, and no byte of a
    /// multi-byte character can be taken for one.
    package static func numbered(_ sql: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: UInt8?
        for byte in sql.utf8 {
            if let open = quote {
                if byte == open { quote = nil }
                out.append(byte)
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
                out.append(byte)
            } else if byte == UInt8(ascii: "?") {
                number += 1
                out.append(UInt8(ascii: "$"))
                out.append(contentsOf: String(number).utf8)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
