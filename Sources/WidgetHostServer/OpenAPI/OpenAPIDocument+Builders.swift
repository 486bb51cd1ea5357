import JSON
import WidgetHost

/// Small builders that keep the document's code close to the JSON it produces.
extension OpenAPIDocument {
    /// `{"$ref": "#/components/schemas/<name>"}`.
    static func ref(_ name: String) -> JSONValue {
        ["$ref": .string("#/components/schemas/\(name)")]
    }

    /// A string schema, optionally with a format, a pattern or allowed values.
    static func string(format: String? = nil, pattern: String? = nil, values: [String]? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "string"]
        if let format { schema["format"] = .string(format) }
        if let pattern { schema["pattern"] = .string(pattern) }
        if let values { schema["enum"] = .array(values.map(JSONValue.string)) }
        return .object(schema)
    }

    /// A string of `length` characters (Unicode scalars, as JSON Schema counts them).
    static func text(length: ClosedRange<Int>) -> JSONValue {
        ["type": "string", "minLength": .int(length.lowerBound), "maxLength": .int(length.upperBound)]
    }

    /// An integer in `range`.
    static func integer(in range: ClosedRange<Int>) -> JSONValue {
        ["type": "integer", "minimum": .int(range.lowerBound), "maximum": .int(range.upperBound)]
    }

    /// A string that is one of `values`, or any string when there are none (an empty `enum` allows nothing).
    static func oneOf(_ values: [String]) -> JSONValue {
        values.isEmpty ? string() : string(values: values)
    }

    /// An ISO 8601 date-time string.
    static let dateTime = string(format: "date-time")
    /// An integer schema.
    static let integer: JSONValue = ["type": "integer"]
    /// A number schema.
    static let number: JSONValue = ["type": "number"]
    /// A Boolean schema.
    static let boolean: JSONValue = ["type": "boolean"]
    /// Any JSON value.
    static let anyValue: JSONValue = [:]
    /// A JSON object with any members.
    static let anyObject: JSONValue = ["type": "object"]
    /// A JSON object whose members are strings.
    static let stringMap: JSONValue = ["type": "object", "additionalProperties": ["type": "string"]]

    /// `schema`, or null: optional request members may be sent as null, which means absent.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        ["anyOf": [schema, ["type": "null"]]]
    }

    /// An array schema.
    static func array(of items: JSONValue) -> JSONValue {
        ["type": "array", "items": items]
    }

    /// An object schema. Request bodies are `closed` (unknown members are refused, as the server does).
    static func object(_ properties: [String: JSONValue], required: [String], closed: Bool = false) -> JSONValue {
        var schema: [String: JSONValue] = [
            "type": "object",
            "properties": .object(properties),
            "required": .array(required.map(JSONValue.string)),
        ]
        if closed { schema["additionalProperties"] = false }
        return .object(schema)
    }

    /// A JSON response whose body is the schema `name`.
    static func json(_ name: String, _ description: String) -> JSONValue {
        ["description": .string(description), "content": ["application/json": ["schema": ref(name)]]]
    }

    /// A required JSON request body whose schema is `name`.
    static func body(_ name: String) -> JSONValue {
        ["required": true, "content": ["application/json": ["schema": ref(name)]]]
    }

    /// A path parameter.
    static func pathParameter(_ name: String, _ schema: JSONValue, _ description: String) -> JSONValue {
        ["name": .string(name), "in": "path", "required": true, "schema": schema,
         "description": .string(description)]
    }

    /// An optional query parameter.
    static func queryParameter(_ name: String, _ schema: JSONValue, _ description: String) -> JSONValue {
        ["name": .string(name), "in": "query", "required": false, "schema": schema,
         "description": .string(description)]
    }

    /// An optional request header.
    static func headerParameter(_ name: String, _ schema: JSONValue, _ description: String) -> JSONValue {
        ["name": .string(name), "in": "header", "required": false, "schema": schema,
         "description": .string(description)]
    }

    /// One operation: its id, summary, parameters, body, success response and error statuses (each
    /// `#/components/responses/Error`; 401 is added to every operation).
    static func operation(
        _ id: String, _ summary: String, parameters: [JSONValue] = [], body: String? = nil,
        success: (status: String, response: JSONValue), errors: [Int] = [], links: [String: JSONValue]? = nil
    ) -> JSONValue {
        var responses: [String: JSONValue] = [:]
        var successResponse = success.response
        if let links, case .object(var members) = successResponse {
            members["links"] = .object(links)
            successResponse = .object(members)
        }
        responses[success.status] = successResponse
        for status in Set(errors + [401]) {
            responses[String(status)] = ["$ref": "#/components/responses/Error"]
        }
        var operation: [String: JSONValue] = [
            "operationId": .string(id), "summary": .string(summary), "responses": .object(responses),
        ]
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        if let body {
            operation["requestBody"] = Self.body(body)
            responses["413"] = ["$ref": "#/components/responses/Error"]
            responses["400"] = ["$ref": "#/components/responses/Error"]
            operation["responses"] = .object(responses)
        }
        return .object(operation)
    }
}
