import Foundation
import JSON

/// One tap on an interactive widget: which intent, with which parameters, from which widget.
public struct PerformRequest: Sendable, Hashable, Codable {
    /// The intent's registered name (``IntentCatalog``).
    public var intentName: String
    /// Parameter values by parameter name, as JSON (see ``IntentRunner`` for the accepted forms). Widgets do not
    /// resolve parameters for app intents: every parameter the intent needs must be here or have a default.
    public var parameters: [String: JSONValue]
    /// The widget instance that was tapped: reloaded at once after the commit, exempt from its budget. Nil when
    /// the perform comes from elsewhere (then only the reloads the intent asks for happen).
    public var instanceID: String?
    /// The placed control that was performed (toggled or pressed): reloaded at once after the commit, owed in the
    /// perform's transaction like the tapped widget. Nil when the perform comes from no control.
    public var controlID: String?
    /// A caller-chosen key: a retry with the same key returns the first outcome instead of running again (see
    /// ``IntentRunner/idempotencyRetention``).
    public var idempotencyKey: String?
    /// Run `perform()`, report what it would change and reload, then roll everything back.
    public var isDryRun: Bool

    /// Creates a request.
    public init(intentName: String, parameters: [String: JSONValue] = [:], instanceID: String? = nil,
                controlID: String? = nil, idempotencyKey: String? = nil, isDryRun: Bool = false) {
        self.intentName = intentName
        self.parameters = parameters
        self.instanceID = instanceID
        self.controlID = controlID
        self.idempotencyKey = idempotencyKey
        self.isDryRun = isDryRun
    }
}
