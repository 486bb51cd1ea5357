import ActivityKit
import Foundation
import JSON
import SharedState

/// Starting, updating and ending an activity: the rules every source (the app, the API, a push) goes through.
extension ActivityChange {
    /// What a start asks for.
    struct Start {
        var type: ActivityAttributesType
        var attributes: JSONValue
        var content: ActivityContentValue
        var push: ActivityPushSubscription
        var style: ActivityStyle
        var alert: ActivityAlert?
        var startsAt: Date?
        var timestamp: Date?
        var source: ActivityEventSource
    }

    /// Starts an activity.
    /// - Throws: ``ActivityError`` when the switches, the limits or the channel refuse it.
    mutating func start(_ start: Start) throws -> ActivityRecord {
        guard try LiveActivities.authorization(store, db).activitiesEnabled else { throw ActivityError.activitiesDisabled }
        if case .channel(let id) = start.push { try ActivityError.checkChannel(id) }
        let size = start.attributes.canonicalText.utf8.count + start.content.state.canonicalText.utf8.count
        guard size <= rules.maximumDataSize else { throw ActivityError.tooLarge(size: size, limit: rules.maximumDataSize) }
        guard try liveCount() < rules.maximumActivities else {
            throw ActivityError.tooManyActivities(limit: rules.maximumActivities)
        }
        types[start.type.name] = types[start.type.name] ?? start.type
        let startsAt = max(start.startsAt ?? now, now)
        let pending = startsAt > now
        var record = ActivityRecord(
            id: UUID().uuidString, attributesType: start.type.name, attributes: start.attributes,
            content: start.content, state: pending ? .pending : .active, push: start.push, style: start.style,
            startedBy: start.source, requestedAt: now, startsAt: startsAt, endedAt: nil, dismissesAt: nil,
            lastUpdateAt: start.timestamp ?? now, pushToken: nil)
        try record.insert(startAlert: pending ? start.alert : nil, db)
        try self.record(.state(record.state), of: record.id, at: now, source: start.source)
        try self.record(.content(record.content), of: record.id, at: now, source: start.source)
        if !pending, let alert = start.alert { try self.record(.alert(alert), of: record.id, at: now, source: start.source) }
        if record.push == .token {
            record.pushToken = try issueToken(activityID: record.id, attributesType: record.attributesType, at: now,
                                              source: start.source)
        }
        if !pending, let staleDate = record.content.staleDate, staleDate <= now {
            record.state = .stale
            try record.save(db)
            try self.record(.state(.stale), of: record.id, at: now, source: .system)
        }
        notify(.started(record.attributesType, record.snapshot))
        return record
    }

    /// Shows new content (and an alert), unless the activity has ended or the update is not the latest.
    /// - Parameter timestamp: The update's time; `nil` (an app update without one) takes the clock's and is never
    ///   refused for its time.
    mutating func update(id: String, content: ActivityContentValue, alert: ActivityAlert?, timestamp: Date?,
                         source: ActivityEventSource, payload: JSONValue? = nil) throws -> ActivityUpdateOutcome {
        var record = try record(id: id)
        if let refusal = try refusal(of: record, timestamp: timestamp, event: "update", source: source, payload: payload) {
            return refusal
        }
        let previous = record.state
        record.lastUpdateAt = max(record.lastUpdateAt, timestamp ?? now)
        record.content = content
        if record.state != .pending {
            let stale = content.staleDate.map { $0 <= now } ?? false
            record.state = stale ? .stale : .active
        }
        try record.save(db)
        try self.record(.content(content), of: id, at: now, source: source)
        if let alert { try self.record(.alert(alert), of: id, at: now, source: source) }
        if record.state != previous { try self.record(.state(record.state), of: id, at: now, source: source) }
        return .applied
    }

    /// Ends the activity, with final content if given, unless it has ended or the end is not the latest update.
    mutating func end(id: String, content: ActivityContentValue?, dismissal: ActivityUIDismissalPolicy,
                      timestamp: Date?, source: ActivityEventSource, payload: JSONValue? = nil) throws
        -> ActivityUpdateOutcome {
        var record = try record(id: id)
        if let refusal = try refusal(of: record, timestamp: timestamp, event: "end", source: source, payload: payload) {
            return refusal
        }
        record.lastUpdateAt = max(record.lastUpdateAt, timestamp ?? now)
        if let content {
            record.content = content
            try self.record(.content(content), of: id, at: now, source: source)
        }
        try end(&record, at: now, dismissal: dismissal, source: source)
        return .applied
    }

    /// Why an update or end cannot apply, recorded, or `nil` when it can.
    private mutating func refusal(of record: ActivityRecord, timestamp: Date?, event: String,
                                  source: ActivityEventSource, payload: JSONValue?) throws -> ActivityUpdateOutcome? {
        guard record.state != .ended, record.state != .dismissed else {
            return try ignore(.activityNotActive, "the activity is \(record.state.rawValue) and takes no more updates",
                              of: record.id, source: source, event: event, payload: payload)
        }
        if let timestamp, timestamp <= record.lastUpdateAt {
            return try ignore(.staleTimestamp, """
                timestamp \(ActivityText.seconds(timestamp)) is not later than the last update applied \
                (\(ActivityText.seconds(record.lastUpdateAt)))
                """, of: record.id, source: source, event: event, payload: payload)
        }
        return nil
    }
}

/// Times in the texts of ignored updates: seconds since 1970, as pushes carry them, and the date they stand for.
enum ActivityText {
    static func seconds(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.towardZero) == seconds && abs(seconds) < 1e15
        return (whole ? String(Int64(seconds)) : String(seconds)) + " (" + DateTimeText.string(from: date, fractionDigits: whole ? 0 : 3) + ")"
    }
}
