import CMicroHTTPD
import Foundation

/// Reading a request from, and queueing a response on, an MHD connection.
enum MHDConnectionValues {
    /// The request header fields, read once for both their readers.
    struct HeaderFields {
        /// The fields as text, in order, for handlers.
        var headers = HTTPHeaders(capacity: 8)
        /// Where each field that has a value sits in MHD's read buffer, for ``RequestHead``'s check.
        var fields: [RequestHead.Field] = []
    }

    /// The request header fields, in order, as text and as places in the read buffer, from one pass over MHD's.
    static func headerFields(of connection: OpaquePointer) -> HeaderFields {
        // Straight into the headers, with room for what a client usually sends: no list of pairs in between.
        var collected = HeaderFields()
        collected.fields.reserveCapacity(8)
        withUnsafeMutablePointer(to: &collected) { collected in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, widgetHostCollectHeader,
                                            UnsafeMutableRawPointer(collected))
        }
        return collected
    }

    /// The query items, decoded (`+` as a space, then percent-decoding; undecodable text is kept raw); see
    /// ``QueryText``.
    static func queryItems(of connection: OpaquePointer) -> [URLQueryItem] {
        values(of: connection, kind: .GET_ARGUMENT_KIND).map { name, value in
            URLQueryItem(name: QueryText.decode(name), value: value.map(QueryText.decode))
        }
    }

    /// Whether the request announces a body (`Content-Length` above 0, or any `Transfer-Encoding`).
    static func expectsBody(_ headers: HTTPHeaders) -> Bool {
        if headers["Transfer-Encoding"] != nil { return true }
        return (headers["Content-Length"].flatMap { Int($0) } ?? 0) > 0
    }

    /// The peer as `host:port`, `[host]:port` or `unix`.
    static func remoteAddress(of connection: OpaquePointer) -> String? {
        guard let address = widgethost_mhd_client_address(connection) else { return nil }
        switch Int32(address.pointee.sa_family) {
        case AF_UNIX:
            return "unix"
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                withUnsafeBytes(of: ipv4.pointee.sin_addr) { ipv4Text($0, port: UInt16(bigEndian: ipv4.pointee.sin_port)) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                let host = withUnsafeBytes(of: ipv6.pointee.sin6_addr) { numericHost(family: AF_INET6, $0) }
                return "[\(host)]:\(UInt16(bigEndian: ipv6.pointee.sin6_port))"
            }
        default:
            return nil
        }
    }

    /// `a.b.c.d:port`, formatted by hand: this runs for every request, and `127.0.0.1:54321` fits a `String`'s
    /// inline storage.
    private static func ipv4Text(_ address: UnsafeRawBufferPointer, port: UInt16) -> String {
        String(unsafeUninitializedCapacity: 21) { text in
            var count = 0
            func append(_ number: Int) {
                if number >= 10 { append(number / 10) }
                text[count] = UInt8(ascii: "0") + UInt8(number % 10)
                count += 1
            }
            for (index, byte) in address.enumerated() {
                if index > 0 {
                    text[count] = UInt8(ascii: ".")
                    count += 1
                }
                append(Int(byte))
            }
            text[count] = UInt8(ascii: ":")
            count += 1
            append(Int(port))
            return count
        }
    }

    private static func numericHost(family: Int32, _ address: UnsafeRawBufferPointer) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = inet_ntop(family, address.baseAddress, &text, socklen_t(text.count))
        return written == nil ? "?" : String(nulTerminated: text)
    }

    /// Queues `response`; MHD copies the body and header strings.
    static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for field in response.headers {
            // `withCString` lends the strings' own bytes (MHD copies them); passing the strings made a C copy of each.
            _ = field.name.withCString { name in
                field.value.withCString { value in MHD_add_response_header(created, name, value) }
            }
        }
        return MHD_queue_response(connection, UInt32(response.status.rawValue), created)
    }

    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(String, String?)] {
        var pairs: [(String, String?)] = []
        withUnsafeMutablePointer(to: &pairs) { pairs in
            _ = MHD_get_connection_values(connection, kind, widgetHostCollectValue, UnsafeMutableRawPointer(pairs))
        }
        return pairs
    }
}

/// `MHD_KeyValueIterator` appending to the `[(String, String?)]` its context points to (on the caller's stack).
func widgetHostCollectValue(
    _ cls: UnsafeMutableRawPointer?,
    _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    cls.assumingMemoryBound(to: [(String, String?)].self).pointee.append(
        (String(cString: key), value.map { String(cString: $0) }))
    return .YES
}

/// `MHD_KeyValueIteratorN` adding each header field to the ``MHDConnectionValues/HeaderFields`` its context points
/// to (on the caller's stack): its name and value as text, as long as MHD says (a field without a value gets an
/// empty one), and, when it has a value, the places of both in the read buffer.
func widgetHostCollectHeader(
    _ cls: UnsafeMutableRawPointer?,
    _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?,
    _ keySize: Int,
    _ value: UnsafePointer<CChar>?,
    _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    func text(_ start: UnsafePointer<CChar>, _ count: Int) -> String {
        start.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
    let collected = cls.assumingMemoryBound(to: MHDConnectionValues.HeaderFields.self)
    collected.pointee.headers.add(name: text(key, keySize), value: value.map { text($0, valueSize) } ?? "")
    if let value {
        collected.pointee.fields.append(RequestHead.Field(
            name: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self),
            value: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self)))
    }
    return .YES
}

extension String {
    /// The text of a NUL-terminated C buffer filled by a C call.
    init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
