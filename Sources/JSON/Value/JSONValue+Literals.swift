/// Literals for JSON values, so parameters read as JSON does: `["taskId": "task-3", "completed": true]`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// A JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A JSON integer.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A JSON number.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A JSON boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// JSON null.
    public init(nilLiteral: ()) { self = .null }
    /// A JSON array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A JSON object; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
