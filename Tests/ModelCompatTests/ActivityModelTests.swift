import ActivityKit
import Foundation
import Testing

struct DeliveryAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var minutesAway: Int
    }

    var orderID: String
}

@Suite("Activity model")
struct ActivityModelTests {
    @Test("content keeps state, stale date and relevance, and round-trips through JSON")
    func content() throws {
        let content = ActivityContent(state: DeliveryAttributes.ContentState(minutesAway: 5), staleDate: nil)
        #expect(content.relevanceScore == 0)
        let decoded = try JSONDecoder().decode(
            ActivityContent<DeliveryAttributes.ContentState>.self, from: try JSONEncoder().encode(content))
        #expect(decoded == content)
    }
}
