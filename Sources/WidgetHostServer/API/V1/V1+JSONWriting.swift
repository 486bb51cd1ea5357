import Foundation
import HTTPServer
import JSON
import WidgetHost

/// A response body that writes its own JSON text, byte for byte what ``HTTPResponse/json(_:status:encoder:)``
/// writes for it with the API's encoder (sorted keys, unescaped slashes, ISO 8601 dates, absent optionals left
/// out), without `JSONEncoder`'s boxing: for the endpoints that answer under load. Tests compare the two.
protocol JSONWritable: Encodable {
    /// Writes the value as one JSON value.
    /// - Throws: `EncodingError` for a non-finite number, as `JSONEncoder` does.
    func write(to writer: inout JSONTextWriter) throws
}

extension HTTPResponse {
    /// A JSON response written by the value itself (see ``JSONWritable``); a value that cannot be written becomes
    /// a 500 `internal` error, as with ``json(_:status:encoder:)``.
    static func json(writing value: some JSONWritable, status: HTTPStatus = .ok) -> HTTPResponse {
        var writer = JSONTextWriter()
        do {
            try value.write(to: &writer)
        } catch {
            return APIError.internal(error).response
        }
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: writer.data)
    }
}

extension V1.Entry: JSONWritable {
    func write(to writer: inout JSONTextWriter) throws {
        writer.beginObject()
        writer.key("content")
        try writer.value(content)
        writer.key("date")
        writer.iso8601(date)
        if let relevanceDuration {
            writer.key("relevanceDuration")
            try writer.double(relevanceDuration)
        }
        if let relevanceScore {
            writer.key("relevanceScore")
            try writer.double(relevanceScore)
        }
        writer.endObject()
    }
}

extension V1.Match: JSONWritable {
    func write(to writer: inout JSONTextWriter) throws {
        writer.beginObject()
        writer.member("canonicalUrl", canonicalUrl)
        writer.key("matched")
        writer.bool(matched)
        if let parameters {
            writer.key("parameters")
            writer.object(parameters)
        }
        if let query {
            writer.key("query")
            writer.beginArray()
            for pair in query {
                writer.beginObject()
                writer.member("name", pair.name)
                writer.member("value", pair.value)
                writer.endObject()
            }
            writer.endArray()
        }
        writer.member("reason", reason)
        writer.member("route", route)
        writer.member("target", target)
        writer.endObject()
    }
}
