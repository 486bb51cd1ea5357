import WidgetHost

extension DemoCatalog {
    /// Intent names, as hosts perform them.
    public enum Intent {
        public static let completeTask = "CompleteTaskIntent"
        public static let setTaskCompleted = "SetTaskCompletedIntent"
        public static let toggleFavorite = "ToggleFavoriteIntent"
    }

    /// The demo's interactive intents: complete a task (button), set a task's state (toggle), toggle a favourite.
    public static func makeIntents() -> IntentCatalog {
        var intents = IntentCatalog()
        intents.register(CompleteTaskIntent.self)
        intents.register(SetTaskCompletedIntent.self)
        intents.register(ToggleFavoriteIntent.self)
        return intents
    }
}
