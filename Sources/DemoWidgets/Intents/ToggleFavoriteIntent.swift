import AppIntents
import Foundation
import WidgetHost

/// A star button: adds a task, project or daily item to the favourites, or removes it.
public struct ToggleFavoriteIntent: AppIntent {
    public static let title: LocalizedStringResource = "Toggle Favorite"
    public static let description = IntentDescription("Adds an item to the favourites, or removes it.")

    /// A task id, a project id, or `daily-yyyy-MM-dd` for a daily item.
    @Parameter(title: "Item ID")
    public var itemID: String

    public init() {}

    /// An intent for one item.
    public init(itemID: String) {
        self.itemID = itemID
    }

    /// Returns whether the item is a favourite afterwards.
    public func perform() async throws -> some IntentResult & ReturnsValue<Bool> {
        guard let transaction = IntentTransaction.current(forGroup: DemoSchema.appGroup) else {
            throw DemoIntentError.noTransaction
        }
        let now = HostEnvironment.current?.now ?? Date()
        let isFavorite = try transaction.withDatabase { db in
            try DemoRepository.toggleFavorite(itemID: itemID, at: now, in: db)
        }
        return .result(value: isFavorite)
    }
}
