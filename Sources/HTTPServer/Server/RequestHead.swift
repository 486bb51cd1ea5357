import CMicroHTTPD
import Foundation
import JSON

/// Checking the request line and header fields byte by byte, before any handler runs.
///
/// libmicrohttpd (0.9.75) hands the method, the request target and every header field over as C strings pointing
/// into its read buffer, after writing NULs over the separators; a NUL byte the client sent inside one of them cuts
/// it short (`Idempotency-Key: ab\0cd` would read as `ab`, `DELETE /v1/instances/v\0/../x` as a delete of `v`). The
/// lengths its `_n` functions report for header fields are `strlen` of the same pointers, so they cannot tell either.
/// What can: where each part ends in the buffer against where the next one starts.
///
/// - The target is scanned by ``scanTarget(_:)`` from MHD's URI log callback, before MHD splits off the query:
///   its bytes up to the first NUL. MHD puts a NUL only over the space before the version, so when that first NUL
///   is not the one just before `version`, the client sent a NUL.
/// - The method ends at a NUL MHD wrote over a space, followed by nothing but spaces up to the target.
/// - A header value ends at the NUL MHD wrote over its line's CR or LF; the next field's name starts one byte later
///   (bare LF) or two (CRLF, whose LF is a NUL too by then); after the last field, the line's end and the empty line
///   take 2 to 4 bytes up to the end of the head (MHD's `MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE`, counted from the
///   method's first byte: the head stays in one buffer, which MHD grows in place). Anything else means the value
///   held a NUL. One case cannot be told apart: a single NUL as a value's last byte before a bare LF reads as the
///   end of a CRLF line; the value is then the client's minus that last NUL, and no other byte is lost or moved.
///
/// Beyond NULs, the grammar of RFC 9110/9112 is checked: the method is a token, the target is visible ASCII that
/// RFC 3986 allows in a URI (no space, control, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}` or byte over 0x7E),
/// a field name is a token, a field value holds no control byte but horizontal tab.
enum RequestHead {
    /// The request target as MHD's URI log callback saw it.
    struct TargetScan {
        /// Bytes before the first NUL.
        var length: Int
        /// The first byte a request target may not hold, and its offset.
        var fault: (offset: Int, byte: UInt8)?
    }

    /// What is wrong with a request's head.
    struct Fault: Equatable {
        /// `method`, `target` or `header`.
        var part: String
        /// The header field's name (as far as it could be read), for a fault in a header.
        var field: String?
        /// The offset of the byte within the method, the target, or the field's value (name for a bad name).
        var offset: Int
        /// The byte.
        var byte: UInt8

        /// 400 `malformed_request` naming the part, the byte and its offset.
        var response: HTTPResponse {
            let hex = "0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            let place = field.map { "header \($0)" } ?? part
            var detail: [String: JSONValue] = ["part": .string(part), "offset": .int(offset), "byte": .string(hex)]
            if let field { detail["field"] = .string(field) }
            return APIError(.malformedRequest, status: .badRequest,
                            message: "the request's \(place) holds byte \(hex) at offset \(offset), which HTTP does not allow there",
                            detail: .object(detail)).response
        }
    }

    /// Scans the target at `uri` (MHD's URI log callback: before MHD splits or decodes it).
    static func scanTarget(_ uri: UnsafePointer<CChar>) -> TargetScan {
        var length = 0
        var fault: (Int, UInt8)?
        uri.withMemoryRebound(to: UInt8.self, capacity: 1) { bytes in
            while bytes[length] != 0 {
                if fault == nil, !isTargetByte(bytes[length]) { fault = (length, bytes[length]) }
                length += 1
            }
        }
        return TargetScan(length: length, fault: fault)
    }

    /// The first fault of the request whose method, target and version MHD gave as `method`, `url`, `version`, given
    /// the target's `scan`; nil for a well-formed head.
    static func fault(method: UnsafePointer<CChar>, url: UnsafePointer<CChar>, version: UnsafePointer<CChar>,
                      scan: TargetScan, fields: [Field], connection: OpaquePointer) -> Fault? {
        let methodFault = method.withMemoryRebound(to: UInt8.self, capacity: 1) { methodBytes in
            url.withMemoryRebound(to: UInt8.self, capacity: 1) { urlBytes in
                self.methodFault(methodBytes, upTo: urlBytes)
            }
        }
        if let methodFault { return methodFault }
        if let (offset, byte) = scan.fault { return Fault(part: "target", offset: offset, byte: byte) }
        // MHD's NUL over the space before the version sits at version - 1; an earlier one is the client's.
        if scan.length != url.distance(to: version) - 1 {
            return Fault(part: "target", offset: scan.length, byte: 0)
        }
        let headSize = widgethost_mhd_request_head_size(connection)
        let headEnd = headSize == 0 ? nil : method.withMemoryRebound(to: UInt8.self, capacity: 1) { $0 + headSize }
        return headerFault(fields, headEnd: headEnd)
    }

    private static func methodFault(_ method: UnsafePointer<UInt8>, upTo target: UnsafePointer<UInt8>) -> Fault? {
        var index = 0
        while method[index] != 0 {
            guard isTokenByte(method[index]) else { return Fault(part: "method", offset: index, byte: method[index]) }
            index += 1
        }
        // method[index] is the NUL over the separating space; MHD skipped any further spaces.
        var gap = index + 1
        while method + gap < target {
            guard method[gap] == UInt8(ascii: " ") else { return Fault(part: "method", offset: index, byte: 0) }
            gap += 1
        }
        return index == 0 ? Fault(part: "method", offset: 0, byte: 0) : nil
    }

    /// A header field as MHD stored it: pointers into the read buffer.
    struct Field {
        var name: UnsafePointer<UInt8>
        var value: UnsafePointer<UInt8>
    }

    /// The first fault in the header fields (those with a value, in MHD's order, as
    /// ``MHDConnectionValues/headerFields(of:)`` collects them); `headEnd` is where the head ends in the read buffer
    /// (the method's start plus MHD's head size), when MHD says.
    private static func headerFault(_ fields: [Field], headEnd: UnsafePointer<UInt8>?) -> Fault? {
        for (index, field) in fields.enumerated() {
            let nameLength = strlen(UnsafeRawPointer(field.name).assumingMemoryBound(to: CChar.self))
            // Made only for a fault: a well-formed head costs no string per field.
            var name: String { String(decoding: UnsafeBufferPointer(start: field.name, count: nameLength), as: UTF8.self) }
            for offset in 0..<nameLength where !isTokenByte(field.name[offset]) {
                return Fault(part: "header", field: name, offset: offset, byte: field.name[offset])
            }
            // Between the name and the value: MHD's NUL over the colon, then the spaces and tabs it skipped. A field
            // continued on the next line (obs-fold, which RFC 9112 lets a server refuse) has its name moved
            // elsewhere by MHD, and fails this.
            let gap = field.name.distance(to: field.value)
            guard gap > nameLength, (nameLength + 1..<gap).allSatisfy({ field.name[$0] == 0x20 || field.name[$0] == 0x09 })
            else {
                return Fault(part: "header", field: name, offset: nameLength, byte: 0)
            }
            var length = 0
            while field.value[length] != 0 {
                let byte = field.value[length]
                if byte < 0x20 && byte != 0x09 || byte == 0x7F {
                    return Fault(part: "header", field: name, offset: length, byte: byte)
                }
                length += 1
            }
            // field.value[length] is the NUL over the line's CR or LF, or the client's NUL.
            let end = field.value + length
            if index + 1 < fields.count {
                // Bare LF: the next name starts right after; CRLF: after the LF's NUL.
                let next = fields[index + 1].name
                guard next == end + 1 || (end[1] == 0 && next == end + 2) else {
                    return Fault(part: "header", field: name, offset: length, byte: 0)
                }
            } else if let headEnd {
                // The last line's end and the empty line: 2 to 4 bytes, all NULs by now, up to the head's end.
                let trailing = end.distance(to: headEnd)
                guard (2...4).contains(trailing), (0..<trailing).allSatisfy({ end[$0] == 0 }) else {
                    return Fault(part: "header", field: name, offset: length, byte: 0)
                }
            } else if end[1] != 0 {
                return Fault(part: "header", field: name, offset: length, byte: 0)
            }
        }
        return nil
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// A byte RFC 3986 allows in a URI (unreserved, reserved, `%`).
    static func isTargetByte(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
             UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            return false
        default:
            return true
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
