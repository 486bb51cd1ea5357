import Foundation
import JSON

/// How builders turn Swift values into payload JSON.
enum PushCoding {
    /// The largest payload APNs takes for Live Activity and widget pushes, in bytes.
    static let maximumPayloadSize = 4096

    /// The first instant a device no longer reads as a date (year 10000), in seconds since 1970.
    static let endOfDates: Double = 253_402_300_800

    /// `value` as the app's `JSONEncoder` with default strategies writes it, read back as JSON: dates become
    /// seconds since 2001-01-01, as the app's `JSONDecoder` expects them.
    static func json<Value: Encodable>(_ value: Value) throws -> JSONValue {
        try JSONParser.parse(JSONEncoder().encode(value))
    }

    /// `date` as whole seconds since 1970 (rounded down), as APNs payloads carry times.
    static func seconds(_ date: Date, field: String) throws(PushBuildError) -> JSONValue {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= 0, seconds < endOfDates else {
            throw PushBuildError(field: field, reason: "must be between 1970 and 9999, in seconds since 1970")
        }
        return .int(Int(seconds))
    }

    /// The payload as compact, sorted JSON, refused when larger than APNs takes.
    static func bytes(_ payload: JSONValue) throws(PushBuildError) -> Data {
        var writer = JSONTextWriter(capacity: 512)
        do {
            try writer.value(payload)
        } catch {
            // Only a non-finite double fails, and JSONParser never reads one.
            throw PushBuildError(field: "aps", reason: "holds a number JSON cannot carry")
        }
        guard writer.bytes.count <= maximumPayloadSize else {
            throw PushBuildError(field: "aps", reason: """
                the payload is \(writer.bytes.count) bytes; APNs takes at most \(maximumPayloadSize)
                """)
        }
        return writer.data
    }
}
