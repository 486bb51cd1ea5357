import Foundation
import JSON

extension StoredTimeline {
    /// The timeline as the engine stores it: byte for byte what `JSONEncoder` with sorted keys writes for it
    /// (``EngineCoding/text(_:)``) but for `/`, which is not escaped, written directly with the JSON module's
    /// writer.
    ///
    /// Every rebuild stores a timeline, and `JSONEncoder` walking it through `Encodable` (each entry's content a
    /// tree of `JSONValue`s) was the largest single cost of a rebuild after the provider. The shape is the
    /// synthesized `Codable` one, so ``EngineCoding/value(_:from:column:)`` reads it back unchanged.
    /// - Throws: `EncodingError` for a non-finite number in an entry's content, as `JSONEncoder` would.
    func storedText() throws -> String {
        // Room for it all at once: each entry's content, its keys, date and relevance (a guess for content held as
        // a value).
        let capacity = entries.reduce(128) { $0 + ($1.contentText?.count ?? 64) + 72 }
        var writer = JSONTextWriter(capacity: capacity)
        writer.beginObject()
        writer.key(plain: "entries")
        writer.beginArray()
        for entry in entries {
            writer.beginObject()
            writer.key(plain: "content")
            if let text = entry.contentText {
                writer.encoded(text)
            } else {
                try writer.value(entry.content)
            }
            writer.key(plain: "date")
            try writer.date(entry.date)
            if let duration = entry.relevanceDuration {
                writer.key(plain: "relevanceDuration")
                try writer.double(duration)
            }
            if let score = entry.relevanceScore {
                writer.key(plain: "relevanceScore")
                try Self.write(score, &writer)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.key(plain: "generatedAt")
        try writer.date(generatedAt)
        writer.key(plain: "policy")
        writer.beginObject()
        switch policy {
        case .after(let date):
            writer.key(plain: "after")
            writer.beginObject()
            writer.key(plain: "_0")
            try writer.date(date)
            writer.endObject()
        case .atEnd:
            writer.key(plain: "atEnd")
            writer.beginObject()
            writer.endObject()
        case .never:
            writer.key(plain: "never")
            writer.beginObject()
            writer.endObject()
        }
        writer.endObject()
        writer.endObject()
        return writer.text
    }

    /// A `Float` as `JSONEncoder` writes one: its own shortest description (not the wider `Double`'s), without a
    /// trailing `.0`.
    private static func write(_ value: Float, _ writer: inout JSONTextWriter) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [], debugDescription: "Unable to encode Float.\(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        writer.encoded(Array(text.utf8))
    }
}

extension EngineCoding {
    /// A list of strings as `JSONEncoder` writes it (``text(_:)``; `/` not escaped), without going through
    /// `Encodable`.
    static func text(strings: [String]) -> String {
        if let plain = JSONTextWriter.plainText(strings: strings) { return plain }
        var writer = JSONTextWriter(capacity: 2 + strings.reduce(0) { $0 + $1.utf8.count + 3 })
        writer.beginArray()
        for string in strings { writer.string(string) }
        writer.endArray()
        return writer.text
    }

    /// Diagnostics as stored (``text(_:)``); most runs have none, and those need no encoder.
    static func text(diagnostics: [TimelineDiagnostic]) -> String {
        diagnostics.isEmpty ? "[]" : text(diagnostics)
    }
}
