import Foundation
import DeepLinks
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
        return json(written: writer, status: status)
    }

    /// A JSON response whose text `writer` holds.
    static func json(written writer: JSONTextWriter, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: writer.data)
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

extension V1.Match {
    /// Writes the answer for a lent match: the bytes ``write(to:)`` writes for `V1.Match(match.owned())`, read
    /// straight from the match, without the answer's list of query pairs, a copy of the match or (for one parameter)
    /// a dictionary of parameters (`POST /v1/routes/match` answers this way under load).
    static func write(_ match: borrowing RouteMatchView, to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.member(plain: "canonicalUrl", match.canonicalURL.string)
        writer.key(plain: "matched")
        writer.bool(true)
        writer.key(plain: "parameters")
        // One parameter, the usual case, is written as it is; more go through the parameters by name, as the match's
        // own `parameters` makes them (members sorted as the writer sorts them, a name two groups share read from the
        // first that took part), from the values decoded here rather than decoded again.
        let parameters = match.pathParameters
        if parameters.count > 1 {
            writer.object(PathParameter.byName(parameters))
        } else {
            writer.beginObject()
            if let parameter = parameters.first { writer.member(parameter.name, parameter.value) }
            writer.endObject()
        }
        writer.key(plain: "query")
        writer.beginArray()
        for item in match.queryItems {
            writer.beginObject()
            writer.member(plain: "name", item.name)
            writer.member(plain: "value", item.value)
            writer.endObject()
        }
        writer.endArray()
        writer.member(plain: "route", match.routeName)
        writer.member(plain: "target", match.target)
        writer.endObject()
    }
}
