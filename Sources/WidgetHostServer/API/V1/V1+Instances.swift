import Foundation
import JSON
import WidgetHost

extension V1 {
    /// `POST /v1/instances`: place a widget.
    struct PlaceRequest: Decodable {
        var kind: String
        var family: String
        var parameters: [String: JSONValue]?
        /// The instance id; a new UUID when absent. 1–128 characters of `A-Z a-z 0-9 . _ -`, not starting with `.`.
        var id: String?
    }

    /// `PATCH /v1/instances/{id}`: change a placed widget's parameters (they replace the previous ones).
    struct UpdateRequest: Decodable {
        var parameters: [String: JSONValue]
    }

    /// `GET /v1/instances`.
    struct InstanceList: Encodable {
        var instances: [Instance]
    }

    /// A placed widget as the host configured it.
    struct Instance: Encodable {
        var id: String
        var kind: String
        var family: String
        var parameters: [String: JSONValue]
        var placedAt: Date
        var updatedAt: Date

        init(_ instance: WidgetInstance) {
            id = instance.id
            kind = instance.kind
            family = instance.family
            parameters = instance.rawParameters
            placedAt = instance.placedAt
            updatedAt = instance.updatedAt
        }
    }

    /// Everything about one placed widget at one instant: the entry it shows, its next reload, its budget and
    /// the doctor's findings. The timeline itself is at `/v1/instances/{id}/timeline`.
    struct InstanceState: Encodable {
        var id: String
        var kind: String
        var family: String
        var parameters: [String: JSONValue]
        var placedAt: Date
        var updatedAt: Date
        var resolvedParameters: [String: JSONValue]
        var evaluatedAt: Date
        var currentEntry: Entry?
        var nextReload: NextReload?
        var budget: Budget
        var providerRuns: Int
        var diagnostics: [Diagnostic]

        init(_ state: WidgetHost.InstanceState) {
            let instance = state.instance
            id = instance.id
            kind = instance.kind
            family = instance.family
            parameters = instance.rawParameters
            placedAt = instance.placedAt
            updatedAt = instance.updatedAt
            resolvedParameters = state.resolvedParameters
            evaluatedAt = state.evaluatedAt
            currentEntry = state.currentEntry.map(Entry.init)
            nextReload = state.nextReload.map(NextReload.init)
            budget = Budget(state.budget)
            providerRuns = state.providerRuns
            diagnostics = state.diagnostics.map(Diagnostic.init)
        }
    }

    /// `GET /v1/instances/{id}/diagnostics`: the timeline doctor's findings, most important first.
    struct DiagnosticList: Encodable {
        var diagnostics: [Diagnostic]
    }

    /// One finding of the timeline doctor.
    struct Diagnostic: Encodable {
        /// A stable code such as `freezes-after` or `budget-exhausted`.
        var code: String
        /// `info`, `warning` or `error`.
        var severity: String
        var message: String
        var date: Date?

        init(_ diagnostic: TimelineDiagnostic) {
            code = diagnostic.code.rawValue
            severity = diagnostic.severity.rawValue
            message = diagnostic.message
            date = diagnostic.date
        }
    }

    /// When an instance reloads next, and why.
    struct NextReload: Encodable {
        var dueAt: Date
        /// A reload reason such as `scheduled` or `kind-reload`.
        var reason: String
        var deferredByBudget: Bool

        init(_ reload: ScheduledReload) {
            dueAt = reload.dueAt
            reason = reload.reason.rawValue
            deferredByBudget = reload.deferredByBudget
        }
    }

    /// An instance's reload budget at one instant.
    struct Budget: Encodable {
        var limit: Int
        var used: Int
        var remaining: Int
        var windowSeconds: Double
        var nextAllowedReload: Date

        init(_ budget: BudgetStatus) {
            limit = budget.limit
            used = budget.used
            remaining = budget.remaining
            windowSeconds = budget.window
            nextAllowedReload = budget.nextAllowedReload
        }
    }
}
