import Foundation
import JSON
import Push
import Testing

/// A content state with one of each kind of member the probe describes.
struct FlightState: Codable, Hashable {
    enum Phase: String, Codable, CaseIterable { case boarding, departed, landed }
    struct Leg: Codable, Hashable {
        var from: String
        var gate: Int?
    }

    var phase: Phase
    var delayMinutes: UInt8
    var departure: Date
    var progress: Double?
    var legs: [Leg]
    var seats: [String: Int]
    var isCancelled: Bool
}

/// A state whose enum the probe cannot enumerate, before a member it then cannot reach.
struct OpaqueState: Codable, Hashable {
    enum Mood: String, Codable { case calm, busy }
    var name: String
    var mood: Mood
    var after: Int
}

@Suite("ContentStateSchema: a JSON Schema from the Swift type")
struct ContentStateSchemaTests {
    @Test("every member with its type; optional members neither required nor non-null; enums listed")
    func flight() {
        let schema = ContentStateSchema.schema(of: FlightState.self, title: "FlightState")
        let expected: JSONValue = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "FlightState",
            "type": "object",
            "properties": [
                "phase": ["enum": ["boarding", "departed", "landed"]],
                "delayMinutes": ["type": "integer", "minimum": 0],
                "departure": ["type": "number",
                              "description": "seconds since 2001-01-01 (JSONDecoder's default date strategy)"],
                "progress": ["type": ["number", "null"]],
                "legs": ["type": "array", "items": [
                    "type": "object",
                    "properties": ["from": ["type": "string"], "gate": ["type": ["integer", "null"]]],
                    "required": ["from"],
                ]],
                "seats": ["type": "object", "additionalProperties": ["type": "integer"]],
                "isCancelled": ["type": "boolean"],
            ],
            "required": ["delayMinutes", "departure", "isCancelled", "legs", "phase", "seats"],
        ]
        #expect(schema == expected, "\(schema.canonicalText)")
    }

    @Test("an enum that is not CaseIterable is a string, and the schema says where the probe stopped")
    func opaque() {
        let schema = ContentStateSchema.schema(of: OpaqueState.self, title: "OpaqueState")
        let properties = schema.objectValue?["properties"]?.objectValue
        #expect(properties?["name"] == ["type": "string"])
        #expect(properties?["mood"] == ["type": "string"])
        #expect(properties?["after"] == nil)
        #expect(schema.objectValue?["$comment"]?.stringValue?.contains("/mood") == true)
    }

    @Test("an ActivityAttributes type's ContentState is titled with its name; a first enum not CaseIterable stops it")
    func parcel() {
        let schema = ContentStateSchema.schema(for: ParcelAttributes.self)
        #expect(schema.objectValue?["title"] == "ParcelAttributes.ContentState")
        #expect(schema.objectValue?["required"] == ["stage"])
        #expect(schema.objectValue?["properties"]?.objectValue?["stage"] == ["type": "string"])
        #expect(schema.objectValue?["$comment"]?.stringValue?.contains("/stage") == true)
    }
}
