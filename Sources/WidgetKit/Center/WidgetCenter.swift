/// The app's handle on its placed widgets: ask for reloads, list configurations.
///
/// Calls go to the host bound to the current task (``HostContext/current``) when it conforms to
/// ``WidgetCenterHost``. With no such host, reloads and invalidations do nothing and
/// ``currentConfigurations()`` returns an empty array, like an app with no placed widgets.
///
/// Mirrors [WidgetCenter](https://developer.apple.com/documentation/widgetkit/widgetcenter).
public final class WidgetCenter: Sendable {
    /// The widget center.
    public static let shared = WidgetCenter()

    private init() {}

    private var host: (any WidgetCenterHost)? {
        HostContext.current as? any WidgetCenterHost
    }

    /// Asks for new timelines for every placed widget of `kind`. A request, subject to the budget.
    public func reloadTimelines(ofKind kind: String) {
        host?.reloadTimelines(ofKind: kind)
    }

    /// Asks for new timelines for every placed widget. A request, subject to the budget.
    public func reloadAllTimelines() {
        host?.reloadAllTimelines()
    }

    /// Returns the placed widgets and their configurations.
    public func currentConfigurations() async throws -> [WidgetInfo] {
        guard let host else { return [] }
        return try await host.currentConfigurations()
    }

    /// Calls `completion` with the placed widgets and their configurations.
    ///
    /// The completion runs on another task, which keeps the current host binding.
    public func getCurrentConfigurations(_ completion: @escaping @Sendable (Result<[WidgetInfo], any Error>) -> Void) {
        let host = self.host
        Task {
            do {
                completion(.success(try await host?.currentConfigurations() ?? []))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Tells the system that the preconfigured widgets from `recommendations()` changed.
    public func invalidateConfigurationRecommendations() {
        host?.invalidateConfigurationRecommendations()
    }

    /// Tells the system that the relevance of widgets of `kind` changed.
    public func invalidateRelevance(ofKind kind: String) {
        host?.invalidateRelevance(ofKind: kind)
    }
}
