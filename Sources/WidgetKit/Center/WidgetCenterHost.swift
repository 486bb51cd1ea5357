/// A host that serves `WidgetCenter.shared`; it conforms by also being the task's ``HostBinding``.
///
/// Bind it with `HostContext.withBinding(_:operation:)` around provider and intent code.
public protocol WidgetCenterHost: HostBinding {
    /// Queues a reload of every placed widget of `kind`. Must not block.
    func reloadTimelines(ofKind kind: String)

    /// Queues a reload of every placed widget. Must not block.
    func reloadAllTimelines()

    /// Returns the placed widgets with their configurations.
    func currentConfigurations() async throws -> [WidgetInfo]

    /// Notes that configuration recommendations changed; does nothing by default.
    func invalidateConfigurationRecommendations()

    /// Notes that the relevance of widgets of `kind` changed; does nothing by default.
    func invalidateRelevance(ofKind kind: String)
}

extension WidgetCenterHost {
    public func invalidateConfigurationRecommendations() {}

    public func invalidateRelevance(ofKind kind: String) {}
}
