import Foundation
import JSON
import WidgetHost

extension V1 {
    /// One timeline entry: its date, relevance, and the entry's other properties as JSON.
    struct Entry: Encodable {
        var date: Date
        var relevanceScore: Double?
        var relevanceDuration: Double?
        var content: JSONValue

        init(_ entry: EntrySnapshot) {
            date = entry.date
            // Through the shortest decimal text, so a Float 0.8 is sent as 0.8, not 0.800000011920929.
            relevanceScore = entry.relevanceScore.flatMap { Double(String($0)) }
            relevanceDuration = entry.relevanceDuration
            content = entry.content
        }
    }

    /// `GET /v1/instances/{id}/entry`: the entry shown at `at`.
    struct EntryAt: Encodable {
        var at: Date
        var entry: Entry
    }

    /// `GET /v1/instances/{id}/timeline`: the stored timeline of the instance's configuration.
    struct Timeline: Encodable {
        var entries: [Entry]
        /// `atEnd`, `after` or `never`.
        var reloadPolicy: String
        /// For `after`: the date the provider asked to be reloaded at.
        var reloadAfter: Date?
        var generatedAt: Date

        init(_ timeline: StoredTimeline) {
            entries = timeline.entries.map(Entry.init)
            generatedAt = timeline.generatedAt
            switch timeline.policy {
            case .atEnd: reloadPolicy = "atEnd"
            case .after(let date):
                reloadPolicy = "after"
                reloadAfter = date
            case .never: reloadPolicy = "never"
            }
        }
    }

    /// `POST /v1/kinds/{kind}/reload`, `POST /v1/reload`: the provider runs made.
    struct ReloadList: Encodable {
        var reloads: [Reload]
    }

    /// One provider run.
    struct Reload: Encodable {
        /// A reload reason such as `scheduled`, `kind-reload`, `all-reload`.
        var reason: String
        var ranAt: Date
        /// The instances the new timeline serves.
        var instanceIds: [String]
        /// Those charged to their budget.
        var chargedInstanceIds: [String]
        /// `accepted`, or `rejected: <reason>`.
        var outcome: String

        init(_ record: ReloadRecord) {
            reason = record.reason.rawValue
            ranAt = record.ranAt
            instanceIds = record.instanceIDs
            chargedInstanceIds = record.chargedInstanceIDs
            outcome = record.outcome
        }
    }
}
