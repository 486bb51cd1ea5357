import Foundation
import JSON
import WidgetHost

// The bodies of `/v1/control-kinds` and `/v1/controls`.
extension V1 {
    /// `GET /v1/control-kinds`.
    package struct ControlKindList: Encodable {
        var kinds: [ControlKind]

        package init(_ kinds: [ControlKindDescriptor]) {
            self.kinds = kinds.map(ControlKind.init)
        }
    }

    /// A control kind: toggle or button, the intent it performs, and for a configurable one its configuration's
    /// parameters (OpenAPI `ControlKind`).
    struct ControlKind: Encodable {
        var kind: String
        /// `toggle` or `button`.
        var style: String
        /// The intent a perform runs (also listed by `/v1/intents`).
        var intent: String
        var configurable: Bool
        /// The configuration intent's parameters, for a configurable kind.
        var configuration: [Parameter]?
        /// A static toggle's preview value.
        var previewValue: JSONValue?

        init(_ descriptor: ControlKindDescriptor) {
            kind = descriptor.kind
            style = descriptor.style.rawValue
            intent = descriptor.intentName
            configurable = descriptor.isConfigurable
            configuration = descriptor.configuration.map { $0.parameters.map(Parameter.init) }
            previewValue = descriptor.previewValue
        }
    }

    /// `POST /v1/controls`: the kind, an optional id, and a configurable kind's configuration (OpenAPI
    /// `PlaceControlRequest`).
    struct PlaceControlBody: Decodable {
        var kind: String
        var id: String?
        var configuration: [String: JSONValue]?
    }

    /// `POST /v1/controls/{id}/toggle`: the toggle's new state.
    struct ToggleControlBody: Decodable {
        var value: Bool
    }

    /// `POST /v1/controls/{id}/press`: nothing to say (an empty object, or no body at all).
    struct PressControlBody: Decodable {
        private enum CodingKeys: CodingKey {}

        /// Opens the object, so that the strict decoder refuses a body that is not one, and any member of it.
        init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: CodingKeys.self)
        }
    }

    /// `GET /v1/controls`.
    package struct ControlList: Encodable {
        var controls: [Control]

        package init(_ controls: [ControlInstance]) {
            self.controls = controls.map(Control.init)
        }
    }

    /// A placed control with the value it shows (OpenAPI `Control`).
    package struct Control: Encodable {
        var id: String
        var kind: String
        var configuration: [String: JSONValue]
        var placedAt: Date
        /// The value last read (a toggle's state); absent for a button or before any read succeeded.
        var value: JSONValue?
        var valueReadAt: Date?
        /// Why the last read failed; the control keeps showing `value`.
        var lastFailure: String?

        package init(_ control: ControlInstance) {
            id = control.id
            kind = control.kind
            configuration = control.configuration
            placedAt = control.placedAt
            value = control.value
            valueReadAt = control.valueReadAt
            lastFailure = control.lastFailure
        }
    }

    /// One read of a control's value (OpenAPI `ControlReload`).
    package struct ControlReload: Encodable {
        var controlId: String
        var kind: String
        /// `placed`, `performed`, `kind_reload`, `all_reload` or `control_push`.
        var reason: String
        var ranAt: Date
        var value: JSONValue?
        var failure: String?

        package init(_ reload: WidgetHost.ControlReload) {
            controlId = reload.instanceID
            kind = reload.kind
            reason = reload.reason.rawValue
            ranAt = reload.ranAt
            value = reload.value
            failure = reload.failure
        }
    }

    /// `GET /v1/control-reloads`.
    package struct ControlReloadList: Encodable {
        var reloads: [ControlReload]

        package init(_ reloads: [WidgetHost.ControlReload]) {
            self.reloads = reloads.map(ControlReload.init)
        }
    }

    /// What toggling or pressing a control did (OpenAPI `ControlOutcome`): the control, the value it shows now, and
    /// the intent's perform, whose `requestedControlReloads` and `controlReloads` list the control reloads the intent
    /// asked for and those that ran (the performed control first).
    package struct ControlOutcome: Encodable {
        var control: String
        /// The control's value after its reload; absent for a button, a dry run or a replay.
        var value: JSONValue?
        /// The intent's perform, as `POST /v1/intents/{name}/perform` answers it.
        var perform: PerformOutcome

        package init(_ outcome: WidgetHost.ControlOutcome) {
            control = outcome.controlID
            value = outcome.value
            perform = PerformOutcome(outcome.intent)
        }
    }

    /// `POST /v1/device/push` with `apns-push-type: controls`: the control reloads the push ran, or why it changed
    /// nothing.
    package struct ControlPushResult: Encodable {
        var applied: Bool
        var reason: String?
        var detail: String?
        var controlReloads: [ControlReload]

        package init(_ delivery: ControlPushDelivery) {
            switch delivery {
            case .applied(let reloads):
                applied = true
                controlReloads = reloads.map(ControlReload.init)
            case .ignored(let reason, let detail):
                applied = false
                self.reason = reason.rawValue
                self.detail = detail
                controlReloads = []
            }
        }
    }
}
