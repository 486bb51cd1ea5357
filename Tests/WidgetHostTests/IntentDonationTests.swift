import AppIntents
import Foundation
import Testing
import WidgetHost
import WidgetHostTesting

/// An intent that donates itself, as iOS code does to teach the system what the user does.
struct DonatingIntent: AppIntent {
    static let title: LocalizedStringResource = "Donating"
    @Parameter(title: "Fail", default: false) var fail: Bool
    init() {}

    func perform() async throws -> some IntentResult {
        IntentDonationManager.shared.donate(intent: self)
        if fail { throw DonationRefused() }
        return .result()
    }

    struct DonationRefused: Error {}
}

@Suite("Donations made inside perform()")
struct IntentDonationTests {
    static func harness() throws -> WidgetHarness {
        var intents = IntentCatalog()
        intents.register(DonatingIntent.self)
        return try WidgetHarness(catalog: WidgetCatalog(), intents: intents, appGroup: "group.widgethost.donations")
    }

    @Test("a successful perform's donation is stored; a failed or dry-run perform's is not")
    func donationsFollowTheOutcome() async throws {
        let harness = try Self.harness()
        try await harness.perform("DonatingIntent")
        #expect(try await harness.engine.donations().map(\.intentType) == ["DonatingIntent"])
        _ = try? await harness.perform("DonatingIntent", ["fail": true])
        try await harness.perform("DonatingIntent", dryRun: true)
        #expect(try await harness.engine.donations().count == 1)
    }
}
