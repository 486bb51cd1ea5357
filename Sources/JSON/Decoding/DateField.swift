import Foundation

/// Reading a date-time member of a request body: a text that is not a date-time of the member's format becomes a
/// `DecodingError.dataCorrupted` whose underlying error is this, which ``StrictJSONDecoder`` answers with 422
/// `invalid_date` naming the member, the text and the reason.
package struct DateField: Error {
    /// The member's text.
    let text: String
    /// Why it is not a date-time of the format.
    let error: DateTimeError

    /// The instant `text` names in `format`.
    /// - Throws: `DecodingError.dataCorrupted` at `codingPath`, with a ``DateField`` as its underlying error.
    package static func date(_ text: String, format: DateTimeFormat, at codingPath: [any CodingKey]) throws -> Date {
        do {
            return try DateTimeText.date(from: text, format: format)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath, debugDescription: error.description,
                underlyingError: DateField(text: text, error: error)))
        }
    }
}
