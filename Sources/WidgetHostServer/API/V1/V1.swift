import Foundation

/// The request and response bodies of the `/v1` API: the wire contract, described in the OpenAPI document.
///
/// These are the API's own types, not the engine's: the engine's types may change shape freely while `/v1`
/// stays put. They are the only wire shapes: the `--json` output of the `widgethost` commands writes the same types,
/// so a script moves from the CLI to the API without renaming a key. Member names are camelCase; dates are ISO 8601
/// strings in UTC; optional members are left out when they have no value.
package enum V1 {}

/// A JSON object of strings, as sent for route parameters.
typealias StringMap = [String: String]
