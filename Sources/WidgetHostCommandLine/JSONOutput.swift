import Foundation

/// Pretty JSON with sorted keys and ISO 8601 dates, for `--json` output: the `/v1` types, encoded as the API encodes
/// them (only the indentation differs).
package enum JSONOutput {
    package static func text<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
