import AppIntents

/// The widget's configuration: which habit it shows.
public struct SelectHabitIntent: WidgetConfigurationIntent {
    public static let title: LocalizedStringResource = "Select habit"
    public static let description = IntentDescription("Shows whether a habit was done today.")

    @Parameter(title: "Habit")
    public var habit: HabitEntity?

    public init() {}
}
