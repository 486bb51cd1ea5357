import Foundation
import HTTPServer
import WidgetHost

/// Interactive intents: list them with their parameters, and perform one (a tap on a widget's button or toggle).
///
/// - `GET /v1/intents` → ``V1/IntentList``
/// - `GET /v1/intents/{name}` → ``V1/Intent``; 404 `unknown_intent`
/// - `POST /v1/intents/{name}/perform?dryRun=` ``V1/PerformBody`` with an optional `Idempotency-Key` header →
///   ``V1/PerformOutcome``; 404 `unknown_intent`, 409 `idempotency_key_reused`, 422 `unknown_instance` /
///   `unknown_parameter` / `missing_parameter` / `invalid_parameter` / `unknown_entity` / `intent_failed`, 400
///   `invalid_query` / `invalid_header`, 503 `transaction_failed`.
///
/// A perform commits durably before it answers, and reloads the tapped instance. With `dryRun=true` the intent runs
/// and is rolled back: the answer says what it would change and reload; nothing is stored, and the key is neither
/// read nor written. With a key, a retry of the same request (intent, parameters as sent, instance) answers the
/// stored first outcome with `Idempotent-Replayed: true` and performs nothing (it runs the first perform's reloads
/// if they are still owed, e.g. after a crash between its commit and its reloads); the same key with another request
/// is 409. Performs (not dry runs, not replays) count in `widgethost_intents_performed_total`; they, and replays
/// that ran owed reloads, tell the reload scheduler that the schedule may have changed (an intent's reloads may have
/// been deferred by budget).
enum IntentsResource: APIResource {
    /// The request header carrying the caller's idempotency key.
    static let idempotencyKeyHeader = "Idempotency-Key"
    /// The response header saying whether the outcome was replayed from an earlier perform with the same key.
    static let replayedHeader = "Idempotent-Replayed"
    /// The longest idempotency key, in characters (each one visible ASCII).
    static let maximumKeyLength = 255

    static func register(in router: inout APIRouter, context: APIContext) {
        let runner = context.intents
        let metrics = context.metrics
        let scheduleChanged = context.scheduleChanged
        let descriptors = runner?.intents.intents ?? []

        router.get("/v1/intents") { _, _ in
            .json(V1.IntentList(intents: descriptors.map(V1.Intent.init)))
        }

        router.get("/v1/intents/{name}") { _, parameters in
            let name = try parameters.require("name")
            guard let descriptor = runner?.intents.descriptor(named: name) else {
                throw APIError(IntentError.unknownIntent(name, known: descriptors.map(\.name)))
            }
            return .json(V1.Intent(descriptor))
        }

        router.post("/v1/intents/{name}/perform", notifiesChanges: false) { request, parameters in
            let name = try parameters.require("name")
            let isDryRun = try APIQuery.bool("dryRun", in: request) ?? false
            let key = try idempotencyKey(in: request)
            let body = try request.decode(V1.PerformBody.self)
            if let instance = body.instance { try APIFields.identifier(instance, field: "instance") }
            guard let runner else {
                throw APIError(IntentError.unknownIntent(name, known: []))
            }
            let perform = WidgetHost.PerformRequest(intentName: name, parameters: body.parameters ?? [:],
                                                    instanceID: body.instance, idempotencyKey: key,
                                                    isDryRun: isDryRun)
            let outcome = try await namingInstancesInBody { try await runner.perform(perform) }
            if !outcome.isDryRun && !outcome.isReplay { metrics.intentPerformed() }
            // A replay that ran its first perform's owed reloads may have deferred budgeted ones, as a perform may.
            if !outcome.isDryRun && (!outcome.isReplay || !outcome.reloads.isEmpty) { scheduleChanged() }
            var response = HTTPResponse.json(V1.PerformOutcome(outcome))
            if outcome.idempotency != nil { response.headers[replayedHeader] = outcome.isReplay ? "true" : "false" }
            return response
        }
    }

    /// The request's idempotency key, or nil when it sends none.
    /// - Throws: 400 `invalid_header` when the key is not 1 to 255 visible ASCII characters.
    static func idempotencyKey(in request: HTTPRequest) throws -> String? {
        guard let key = request.headers[idempotencyKeyHeader] else { return nil }
        let bytes = key.utf8
        guard (1...maximumKeyLength).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw APIError.invalidHeader(idempotencyKeyHeader,
                                         "expected 1 to \(maximumKeyLength) visible ASCII characters")
        }
        return key
    }
}
