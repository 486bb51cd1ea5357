import AppIntents
import Foundation
import JSON

/// A donated intent as the engine stores it: the intent's type, its parameters as canonical JSON, and when.
public struct DonationRecord: Sendable, Hashable, Codable {
    /// The donation's identifier.
    public var id: UUID
    /// The intent's type name (`SelectProjectIntent`).
    public var intentType: String
    /// Its parameter values, as the engine stores configuration parameters (entity ids, enum raw values).
    public var parameters: [String: JSONValue]
    /// When it was donated, on the engine's clock.
    public var donatedAt: Date

    /// Creates a record.
    public init(id: UUID = UUID(), intentType: String, parameters: [String: JSONValue], donatedAt: Date) {
        self.id = id
        self.intentType = intentType
        self.parameters = parameters
        self.donatedAt = donatedAt
    }

    /// The record of a donation made through `IntentDonationManager`.
    init(_ donation: IntentDonation, at date: Date) {
        self.init(id: donation.identifier.rawValue, intentType: Self.typeName(of: donation.intent),
                  parameters: Self.parameters(of: donation.intent), donatedAt: date)
    }

    static func typeName(of intent: any AppIntent) -> String {
        String(describing: type(of: intent))
    }

    /// The intent's current parameter values; a required parameter without a value is left out.
    static func parameters(of intent: any AppIntent) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for (name, parameter) in intent.parameters() {
            guard let value = parameter.currentValue else { continue }
            values[name] = ParameterValueConversion.json(from: value)
        }
        return values
    }

    /// Whether a signal about an intent with these parameters concerns a widget configured with `configured`:
    /// every parameter the signal sets (not null) must equal the configuration's; parameters it leaves unset
    /// match anything.
    static func parameters(_ signal: [String: JSONValue], match configured: [String: JSONValue]) -> Bool {
        signal.allSatisfy { name, value in value == .null || configured[name] == value }
    }
}

/// One entry of the app's `RelevantIntentManager` list, as the engine stores it.
public struct RelevantIntentRecord: Sendable, Hashable, Codable {
    /// The widget kind it suggests.
    public var widgetKind: String
    /// The configuration intent's type name.
    public var intentType: String
    /// The configuration's parameter values.
    public var parameters: [String: JSONValue]
    /// When it is relevant.
    public var context: RelevantContext

    /// Creates a record.
    public init(widgetKind: String, intentType: String, parameters: [String: JSONValue], context: RelevantContext) {
        self.widgetKind = widgetKind
        self.intentType = intentType
        self.parameters = parameters
        self.context = context
    }

    /// The record of a `RelevantIntent`.
    init(_ relevant: RelevantIntent) {
        self.init(widgetKind: relevant.widgetKind, intentType: DonationRecord.typeName(of: relevant.intent),
                  parameters: DonationRecord.parameters(of: relevant.intent), context: relevant.relevance)
    }

    /// How relevant the context makes the widget at `time`, 0...1: 1 inside a date window, fading linearly to
    /// 0 at `reach` seconds from an exact date; situational clues (location, fitness, ...) give 0.
    func weight(at time: Date, reach: TimeInterval) -> Double {
        switch context.clue {
        case .dateInterval(let start, let end):
            return time >= start && time < end ? 1 : 0
        case .date(let exact):
            guard reach > 0 else { return time == exact ? 1 : 0 }
            return max(0, 1 - abs(time.timeIntervalSince(exact)) / reach)
        case .inferredLocation, .fitness, .sleep, .headphones:
            return 0
        }
    }
}
