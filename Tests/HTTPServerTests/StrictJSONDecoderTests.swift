import Foundation
import HTTPTestSupport
import Testing
import JSON
import HTTPServer

@Suite("Strict JSON request bodies")
struct StrictJSONDecoderTests {
    struct PlaceWidget: Decodable, Equatable {
        struct Parameter: Decodable, Equatable {
            var name: String
            var value: Int
        }

        enum Family: String, Decodable {
            case systemSmall, systemMedium
        }

        var kind: String
        var family: Family
        var count: Int8
        var ratio: Double?
        var at: Date?
        var parameters: [Parameter]
        var extra: [String: String]?
    }

    private func decodeError(_ json: String) -> APIError? {
        do {
            _ = try APIError.decodingBody(as: PlaceWidget.self) {
                try StrictJSONDecoder().decode(PlaceWidget.self, from: Data(json.utf8))
            }
            return nil
        } catch {
            return error as? APIError
        }
    }

    private func field(_ error: APIError?) -> String? {
        error?.detail?.objectValue?["field"]?.stringValue
    }

    @Test("a valid body decodes, with dates, optional members and free-form dictionaries")
    func validBody() throws {
        let json = #"""
        {"kind":"daily","family":"systemSmall","count":3.0,"ratio":1,"at":"2026-11-29T14:00:00Z",
         "parameters":[{"name":"project","value":7}],"extra":{"anything":"goes"}}
        """#
        let value = try StrictJSONDecoder().decode(PlaceWidget.self, from: Data(json.utf8))
        #expect(value.kind == "daily")
        #expect(value.count == 3)
        #expect(value.ratio == 1)
        #expect(value.at == Date(timeIntervalSince1970: 1_795_960_800))
        #expect(value.parameters == [.init(name: "project", value: 7)])
        #expect(value.extra == ["anything": "goes"])
    }

    @Test("malformed JSON is malformed_json with a position", arguments: [
        (#"{"kind": "daily",}"#, 1, 18),
        ("{\"kind\":\n  tru}", 2, 3),
        (#"{"kind" "daily"}"#, 1, 9),
        ("", 1, 1),
        (#"{"a":1} x"#, 1, 9),
        (#"{"a":1,"a":2}"#, 1, 8),
        (#"{"a":"\x"}"#, 1, 7),
        (#"[1, 2"#, 1, 6),
        (#"{"a":01}"#, 1, 7),
    ])
    func malformed(json: String, line: Int, column: Int) {
        let error = decodeError(json)
        #expect(error?.code == .malformedJSON)
        #expect(error?.status == .badRequest)
        #expect(error?.detail?.objectValue?["line"] == .int(line))
        #expect(error?.detail?.objectValue?["column"] == .int(column))
    }

    @Test("deep nesting is refused, not a stack overflow")
    func deepNesting() {
        let json = String(repeating: "[", count: 100_000)
        #expect(decodeError(json)?.code == .malformedJSON)
    }

    @Test("wrong types are invalid_field naming the field path and the expected type", arguments: [
        (#"{"kind":1,"family":"systemSmall","count":1,"parameters":[]}"#, "kind", "String"),
        (#"{"kind":"k","family":"systemSmall","count":"1","parameters":[]}"#, "count", "Int8"),
        (#"{"kind":"k","family":"systemSmall","count":300,"parameters":[]}"#, "count", "Int8"),
        (#"{"kind":"k","family":"systemSmall","count":1.5,"parameters":[]}"#, "count", "Int8"),
        (#"{"kind":"k","family":"systemSmall","count":1,"parameters":[{"name":"a","value":true}]}"#, "parameters[0].value", "Int"),
        (#"{"kind":"k","family":"systemSmall","count":1,"parameters":{}}"#, "parameters", "Array<JSONValue>"),
        (#"{"kind":null,"family":"systemSmall","count":1,"parameters":[]}"#, "kind", "String"),
        (#"{"kind":"k","family":"systemSmall","count":1,"parameters":[],"at":1}"#, "at", "Date"),
        (#"[]"#, "$", "Dictionary<String, JSONValue>"),
    ])
    func wrongTypes(json: String, path: String, expected: String) {
        let error = decodeError(json)
        #expect(error?.code == .invalidField)
        #expect(field(error) == path)
        #expect(error?.detail?.objectValue?["expected"]?.stringValue == expected)
    }

    @Test("a string that is not a date-time where a date belongs is 422 invalid_date naming the field and the byte",
          arguments: [("yesterday", 0), ("2026-02-30T10:00:00Z", 8), ("2026-11-24T24:00:00Z", 11)])
    func invalidDate(text: String, offset: Int) {
        let error = decodeError(#"{"kind":"k","family":"systemSmall","count":1,"parameters":[],"at":"\#(text)"}"#)
        #expect(error?.code == .invalidDate)
        #expect(error?.status == .unprocessableContent)
        #expect(field(error) == "at")
        #expect(error?.detail?.objectValue?["value"]?.stringValue == text)
        #expect(error?.detail?.objectValue?["offset"] == .int(offset))
    }

    @Test("a value the type rejects (unknown enum case) is invalid_field")
    func badEnum() {
        let error = decodeError(#"{"kind":"k","family":"systemHuge","count":1,"parameters":[]}"#)
        #expect(error?.code == .invalidField)
        #expect(field(error) == "family")
    }

    @Test("a missing member is missing_field")
    func missing() {
        let error = decodeError(#"{"kind":"k","family":"systemSmall","parameters":[]}"#)
        #expect(error?.code == .missingField)
        #expect(field(error) == "count")
    }

    @Test("unknown members are unknown_field, also when nested", arguments: [
        (#"{"kind":"k","family":"systemSmall","count":1,"parameters":[],"colour":"red"}"#, "colour"),
        (#"{"kind":"k","family":"systemSmall","count":1,"parameters":[{"name":"a","value":1,"unit":"s"}]}"#, "parameters[0].unit"),
        (#"{"kind":"k","family":"systemSmall","count":1,"parameters":[],"ratio":null,"Kind":"x"}"#, "Kind"),
    ])
    func unknown(json: String, path: String) {
        let error = decodeError(json)
        #expect(error?.code == .unknownField)
        #expect(field(error) == path)
        #expect(error?.message.contains(path) == true)
    }

    @Test("through the server: 400 with the right code and no handler side effect")
    func serverRejectsBadBodies() async throws {
        let created = Tally()
        var router = HTTPRouter()
        router.post("/v1/instances") { request, _ in
            let body = try request.decode(PlaceWidget.self)
            created.increment()
            return .json(["kind": body.kind], status: .created)
        }
        let server = try TestServer.start(router)
        let client = try RawHTTPClient(server.address)
        let cases: [(String, String)] = [
            (#"{"kind":"k",,}"#, "malformed_json"),
            (#"{"kind":"k","family":"systemSmall","count":1,"parameters":[],"bogus":1}"#, "unknown_field"),
            (#"{"kind":"k","family":"systemSmall","count":"one","parameters":[]}"#, "invalid_field"),
            (#"{"family":"systemSmall","count":1,"parameters":[]}"#, "missing_field"),
            ("", "malformed_json"),
        ]
        for (body, code) in cases {
            let response = try await client.request("POST", "/v1/instances", headers: [("Content-Type", "application/json")], body: Data(body.utf8))
            #expect(response.status == 400, "\(body)")
            #expect(response.json["code"] as? String == code, "\(body)")
            #expect(response.json["message"] is String)
            #expect(response.json["detail"] is [String: Any])
        }
        #expect(created.value == 0)
        let good = try await client.request(
            "POST", "/v1/instances", body: Data(#"{"kind":"k","family":"systemSmall","count":1,"parameters":[]}"#.utf8)
        )
        #expect(good.status == 201)
        #expect(created.value == 1)
        await server.stop()
    }
}
