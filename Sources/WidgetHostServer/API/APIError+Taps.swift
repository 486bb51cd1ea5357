import HTTPServer
import WidgetHost

extension APIError.Code {
    /// 422: a tap names neither a placed instance nor a kind and family (`detail.url`).
    public static let tapWidgetUnknown: Self = "tap_widget_unknown"
}

extension APIError {
    /// The API's answer to a refused tap: 422 `unknown_instance` (the body names an instance that is not placed, and
    /// gives no kind and family to fall back on), or 422 `tap_widget_unknown`.
    public init(_ error: TapError) {
        let message = error.description
        switch error {
        case .unknownInstance(let id):
            self.init(.unknownInstance, status: .unprocessableContent, message: message,
                      detail: ["instance": .string(id)])
        case .widgetUnknown(let url):
            self.init(.tapWidgetUnknown, status: .unprocessableContent, message: message,
                      detail: ["url": .string(url)])
        case .dateOutOfRange(let url, _):
            // The API's strict date parsing keeps such dates out; a library caller's tap can still carry one.
            self.init(.invalidDate, status: .unprocessableContent, message: message, detail: ["url": .string(url)])
        }
    }
}
