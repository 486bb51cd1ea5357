import AppIntents
import WidgetHost
import WidgetKit

/// The habit tracker's widgets and intents, as the daemon and the tests register them.
public enum HabitWidgets {
    /// The habit widget's kind.
    public static let kind = "HabitWidget"

    /// The widget kinds.
    public static func catalog() -> WidgetCatalog {
        var catalog = WidgetCatalog()
        catalog.register(kind: kind, displayName: "Habit", description: "Whether a habit was done today.",
                         families: [.systemSmall, .accessoryCircular], provider: HabitProvider())
        return catalog
    }

    /// The interactive intents.
    public static func intents() -> IntentCatalog {
        var intents = IntentCatalog()
        intents.register(LogHabitIntent.self)
        return intents
    }
}
