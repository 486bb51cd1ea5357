import DeepLinks
import JSON
import WidgetHost
import WidgetKit

/// The document's `components.schemas`: the ``V1`` bodies.
extension OpenAPIDocument {
    typealias D = OpenAPIDocument

    /// A date-time the virtual clock may be set to: years 2000 to 2199, in UTC (`Z`).
    static let settableDateTime = string(format: "date-time", pattern: ClockResource.settableFormat.pattern)

    static func schemas(kinds: [String], routeNames: [String]) -> [String: JSONValue] {
        var schemas = widgetSchemas(kinds: kinds)
        schemas.merge(instanceSchemas) { first, _ in first }
        schemas.merge(routeSchemas) { first, _ in first }
        schemas["BuildRequest"] = D.object([
            "route": ["type": "string", "examples": .array(routeNames.map(JSONValue.string))],
            "parameters": D.nullable(D.stringMap), "query": D.nullable(D.array(of: D.ref("QueryPair"))),
        ], required: ["route"], closed: true)
        schemas.merge(clockSchemas) { first, _ in first }
        return schemas
    }

    static func widgetSchemas(kinds: [String]) -> [String: JSONValue] {
        [
            "Error": D.object([
                "code": D.string(), "message": D.string(), "detail": ["type": ["object", "null"]],
            ], required: ["code", "message", "detail"]),
            "Health": D.object(["status": D.string(values: ["ok"])], required: ["status"]),
            "KindList": D.object(["kinds": D.array(of: D.ref("Kind"))], required: ["kinds"]),
            "Kind": D.object([
                "kind": D.string(), "displayName": D.string(), "description": D.string(),
                "families": D.array(of: D.string(values: WidgetFamily.allCases.map(\.rawValue))),
                "intentType": D.string(), "parameters": D.array(of: D.ref("Parameter")),
            ], required: ["kind", "displayName", "description", "families", "parameters"]),
            "Parameter": D.object([
                "name": D.string(), "title": D.string(), "description": D.string(),
                "type": D.string(values: ["bool", "int", "double", "string", "date", "url", "enum", "entity"]),
                "optional": D.boolean, "default": D.anyValue, "entityType": D.string(), "enumType": D.string(),
                "cases": D.array(of: D.object(["value": D.string(), "title": D.string()], required: ["value", "title"])),
                "hasOptions": D.boolean,
            ], required: ["name", "title", "type", "optional", "hasOptions"]),
            "OptionList": D.object(["options": D.array(of: D.ref("Option"))], required: ["options"]),
            "Option": D.object(["value": D.anyValue, "title": D.string(), "subtitle": D.string()],
                               required: ["value", "title"]),
            "PlaceRequest": D.object([
                "kind": D.string(values: kinds),
                "family": D.string(values: WidgetFamily.allCases.map(\.rawValue)),
                "parameters": ["anyOf": [D.anyObject, ["type": "null"]], "examples": [["project": "proj-thesis"]]],
                "id": D.nullable(D.string(pattern: InstancesResource.idPattern)),
            ], required: ["kind", "family"], closed: true),
            "UpdateRequest": D.object(["parameters": D.anyObject], required: ["parameters"], closed: true),
            "ReloadList": D.object(["reloads": D.array(of: D.ref("Reload"))], required: ["reloads"]),
            "Reload": D.object([
                "reason": D.string(values: ReloadReason.allCases.map(\.rawValue)), "ranAt": D.dateTime,
                "instanceIds": D.array(of: D.string()), "chargedInstanceIds": D.array(of: D.string()),
                "outcome": D.string(),
            ], required: ["reason", "ranAt", "instanceIds", "chargedInstanceIds", "outcome"]),
        ]
    }

    static let instanceSchemas: [String: JSONValue] = [
        "InstanceList": D.object(["instances": D.array(of: D.ref("Instance"))], required: ["instances"]),
        "Instance": D.object([
            "id": D.string(), "kind": D.string(), "family": D.string(), "parameters": D.anyObject,
            "placedAt": D.dateTime, "updatedAt": D.dateTime,
        ], required: ["id", "kind", "family", "parameters", "placedAt", "updatedAt"]),
        "InstanceState": D.object([
            "id": D.string(), "kind": D.string(), "family": D.string(), "parameters": D.anyObject,
            "placedAt": D.dateTime, "updatedAt": D.dateTime, "resolvedParameters": D.anyObject,
            "evaluatedAt": D.dateTime, "currentEntry": D.ref("Entry"), "nextReload": D.ref("NextReload"),
            "budget": D.ref("Budget"), "providerRuns": D.integer,
            "diagnostics": D.array(of: D.ref("Diagnostic")),
        ], required: ["id", "kind", "family", "parameters", "placedAt", "updatedAt", "resolvedParameters",
                      "evaluatedAt", "budget", "providerRuns", "diagnostics"]),
        "Entry": D.object([
            "date": D.dateTime, "relevanceScore": D.number, "relevanceDuration": D.number, "content": D.anyValue,
        ], required: ["date", "content"]),
        "EntryAt": D.object(["at": D.dateTime, "entry": D.ref("Entry")], required: ["at", "entry"]),
        "Timeline": D.object([
            "entries": D.array(of: D.ref("Entry")), "reloadPolicy": D.string(values: ["atEnd", "after", "never"]),
            "reloadAfter": D.dateTime, "generatedAt": D.dateTime,
        ], required: ["entries", "reloadPolicy", "generatedAt"]),
        "NextReload": D.object([
            "dueAt": D.dateTime, "reason": D.string(values: ReloadReason.allCases.map(\.rawValue)),
            "deferredByBudget": D.boolean,
        ], required: ["dueAt", "reason", "deferredByBudget"]),
        "Budget": D.object([
            "limit": D.integer, "used": D.integer, "remaining": D.integer, "windowSeconds": D.number,
            "nextAllowedReload": D.dateTime,
        ], required: ["limit", "used", "remaining", "windowSeconds", "nextAllowedReload"]),
        "DiagnosticList": D.object(["diagnostics": D.array(of: D.ref("Diagnostic"))], required: ["diagnostics"]),
        "Diagnostic": D.object([
            "code": D.string(values: TimelineDiagnostic.Code.allCases.map(\.rawValue)),
            "severity": D.string(values: ["info", "warning", "error"]), "message": D.string(), "date": D.dateTime,
        ], required: ["code", "severity", "message"]),
    ]

    static let routeSchemas: [String: JSONValue] = [
        "RouteRequest": D.object([
            "url": D.string(format: "uri"),
            "source": D.nullable(D.string(values: TapSource.allCases.map(\.rawValue))),
            "family": D.nullable(D.string(values: WidgetFamilyName.allCases.map(\.rawValue))),
        ], required: ["url"], closed: true),
        "QueryPair": D.object(["name": D.string(), "value": D.string()], required: ["name", "value"], closed: true),
        "BuiltURL": D.object(["url": D.string()], required: ["url"]),
        "RouteReload": D.object([
            "directory": D.string(), "routes": D.integer, "generation": D.integer,
            "warnings": D.array(of: D.ref("RouteProblem")),
        ], required: ["directory", "routes", "generation", "warnings"]),
        "RouteProblem": D.object([
            "file": D.string(), "line": D.integer, "column": D.integer, "severity": D.string(values: ["error", "warning"]),
            "code": D.string(), "message": D.string(), "text": D.string(),
        ], required: ["file", "line", "column", "severity", "code", "message", "text"]),
        "RouteList": D.object(["routes": D.array(of: D.ref("RouteInfo"))], required: ["routes"]),
        "RouteInfo": D.object([
            "name": D.string(), "pattern": D.string(), "target": D.string(), "priority": D.integer,
            "parameters": D.array(of: D.string()), "families": D.array(of: D.string()),
            "sources": D.array(of: D.string()), "examples": D.array(of: D.string()), "note": D.string(),
        ], required: ["name", "pattern", "target", "priority", "parameters", "families", "sources", "examples"]),
        "Match": D.object([
            "matched": D.boolean, "route": D.string(), "target": D.string(), "parameters": D.stringMap,
            "query": D.array(of: D.ref("QueryPair")), "canonicalUrl": D.string(), "reason": D.string(),
        ], required: ["matched"]),
        "MatchList": D.object([
            "matches": D.array(of: D.ref("Match")), "reason": D.string(),
        ], required: ["matches"]),
        "Explanation": D.object([
            "url": D.string(), "canonicalUrl": D.string(), "dispatchedOn": D.string(),
            "skippedByDispatch": D.integer, "winner": D.string(), "candidates": D.array(of: D.ref("Candidate")),
        ], required: ["url", "canonicalUrl", "dispatchedOn", "skippedByDispatch", "candidates"]),
        "Candidate": D.object([
            "route": D.string(), "pattern": D.string(), "priority": D.integer,
            "outcome": D.string(values: ["won", "shadowed", "pattern-mismatch", "query-rejected", "context-rejected",
                                         "match-limit-exceeded"]),
            "shadowedBy": D.string(), "reason": D.string(), "parameters": D.stringMap, "explanation": D.string(),
        ], required: ["route", "pattern", "priority", "outcome", "parameters", "explanation"]),
    ]

    static let clockSchemas: [String: JSONValue] = [
        "Clock": D.object([
            "now": D.dateTime, "mode": D.string(values: ["system", "virtual"]), "timeZone": D.string(),
        ], required: ["now", "mode", "timeZone"]),
        "SetClockRequest": D.object(["now": D.settableDateTime], required: ["now"], closed: true),
        "AdvanceClockRequest": D.object([
            "seconds": ["type": "number", "minimum": 0, "maximum": .double(ClockResource.maximumAdvance)],
        ], required: ["seconds"], closed: true),
        "ClockChange": D.object([
            "now": D.dateTime, "mode": D.string(values: ["system", "virtual"]), "timeZone": D.string(),
            "reloads": D.array(of: D.ref("Reload")),
        ], required: ["now", "mode", "timeZone", "reloads"]),
    ]
}
