import JSON

/// What the probe learned of one value: a scalar's schema, or an object's members, or an array's items.
///
/// A class because the decoder's containers are values handed to the type under probe: each records into the slot
/// it was given, and the tree of slots is read once the probe is over.
final class ProbeSlot {
    /// A scalar's or enum's schema; `{}` (anything) until something is learned.
    var scalar: JSONValue = .object([:])
    var isObject = false
    var isArray = false
    var properties: [String: ProbeSlot] = [:]
    var required: Set<String> = []
    /// Members the type asked about with `decodeIfPresent` (seen as `decodeNil`): optional, may be null.
    var optional: Set<String> = []
    var items: ProbeSlot?
    /// The values of a `[String: …]` dictionary.
    var additional: ProbeSlot?
    var nullable = false

    func property(_ name: String) -> ProbeSlot {
        if let slot = properties[name] { return slot }
        let slot = ProbeSlot()
        properties[name] = slot
        return slot
    }

    var json: JSONValue {
        var schema: JSONValue
        if isObject {
            var members: [String: JSONValue] = ["type": "object"]
            if !properties.isEmpty { members["properties"] = .object(properties.mapValues(\.json)) }
            let required = required.subtracting(optional)
            if !required.isEmpty { members["required"] = .array(required.sorted().map(JSONValue.string)) }
            if let additional { members["additionalProperties"] = additional.json }
            schema = .object(members)
        } else if isArray {
            schema = ["type": "array", "items": items?.json ?? .object([:])]
        } else {
            schema = scalar
        }
        guard nullable else { return schema }
        if case .object(var members) = schema, case .string(let type)? = members["type"] {
            members["type"] = [.string(type), "null"]
            return .object(members)
        }
        return ["anyOf": [schema, ["type": "null"]]]
    }
}
