import ActivityKit
import Foundation
import SharedState

/// The changes that come with time: a scheduled start, the system's end after 8 hours, staleness, dismissal, and
/// token rotation, each applied at the moment it came due.
extension ActivityChange {
    /// A change that comes with time.
    enum Transition {
        case start, systemEnd, stale, dismiss, rotateToken
    }

    /// Applies every transition due by now, each at its own time, in time order per activity.
    mutating func settle() throws {
        for var record in try records(where: "next_transition_at <= ?", [now.sqlValue]) {
            while let (date, transition) = try nextTransition(of: record), date <= now {
                try apply(transition, at: date, to: &record)
            }
        }
        while let row = try db.queryOne("""
            SELECT attributes_type, rotates_at FROM activity_tokens
            WHERE activity_id IS NULL AND replaced_at IS NULL AND rotates_at <= ? ORDER BY rotates_at LIMIT 1
            """, [now.sqlValue]), let type = row.string("attributes_type"), let due = row.date("rotates_at") {
            try issueToken(activityID: nil, attributesType: type, at: due, source: .system)
        }
    }

    /// Whether a transition (of an activity, or a push-to-start token's rotation) is due by `now`: what decides
    /// whether a read must settle first.
    static func hasDueTransition(by now: Date, _ db: Database) throws -> Bool {
        try db.queryOne("""
            SELECT 1 WHERE EXISTS (SELECT 1 FROM activities WHERE next_transition_at <= ?1)
                OR EXISTS (SELECT 1 FROM activity_tokens
                           WHERE activity_id IS NULL AND replaced_at IS NULL AND rotates_at <= ?1)
            """, [now.sqlValue]) != nil
    }

    /// The next transition of one activity and when it comes due, whether or not that is past.
    func nextTransition(of record: ActivityRecord) throws -> (Date, Transition)? {
        var candidates: [(Date, Transition)] = []
        switch record.state {
        case .pending:
            candidates.append((record.startsAt, .start))
        case .active, .stale:
            let systemEnd = record.startsAt.addingTimeInterval(rules.maximumActiveDuration)
            candidates.append((systemEnd, .systemEnd))
            if record.state == .active, let staleDate = record.content.staleDate {
                candidates.append((max(staleDate, record.startsAt), .stale))
            }
        case .ended:
            if let dismissal = record.dismissesAt { candidates.append((dismissal, .dismiss)) }
        case .dismissed:
            return nil
        }
        if record.state != .ended, record.push == .token, let rotation = try db.scalar("""
            SELECT rotates_at FROM activity_tokens WHERE activity_id = ? AND replaced_at IS NULL
            """, [.text(record.id)], as: Date.self) {
            candidates.append((rotation, .rotateToken))
        }
        // The earliest; on a tie, the first listed (the system's end before staleness).
        return candidates.min { $0.0 < $1.0 }
    }

    private mutating func apply(_ transition: Transition, at date: Date, to record: inout ActivityRecord) throws {
        switch transition {
        case .start:
            let alert = try startAlert(id: record.id)
            record.state = .active
            try record.save(db)
            try self.record(.state(.active), of: record.id, at: date, source: .system)
            if let alert {
                try self.record(.alert(alert), of: record.id, at: date, source: .system)
            }
        case .systemEnd:
            try end(&record, at: date, dismissal: .default, source: .system)
        case .stale:
            record.state = .stale
            try record.save(db)
            try self.record(.state(.stale), of: record.id, at: date, source: .system)
        case .dismiss:
            record.state = .dismissed
            try record.save(db)
            try self.record(.state(.dismissed), of: record.id, at: date, source: .system)
        case .rotateToken:
            record.pushToken = try issueToken(activityID: record.id, attributesType: record.attributesType, at: date,
                                              source: .system)
        }
    }

    /// Ends an activity at `date` (the app's, a push's, or the system's end) and dismisses it by `policy`.
    mutating func end(_ record: inout ActivityRecord, at date: Date, dismissal policy: ActivityUIDismissalPolicy,
                      source: ActivityEventSource) throws {
        // Four hours on the Lock Screen, and never beyond twelve hours after the start.
        let latest = max(date, min(date.addingTimeInterval(rules.lockScreenDuration),
                                   record.startsAt.addingTimeInterval(rules.maximumLifetime)))
        let dismissal = switch policy.kind {
        case .default: latest
        case .immediate: date
        case .after(let requested): min(max(requested, date), latest)
        }
        record.state = .ended
        record.endedAt = date
        record.dismissesAt = max(dismissal, date)
        try record.save(db)
        try db.execute("UPDATE activity_tokens SET rotates_at = NULL WHERE activity_id = ?", [.text(record.id)])
        try self.record(.state(.ended), of: record.id, at: date, source: source)
        if dismissal <= date {
            record.state = .dismissed
            try record.save(db)
            try self.record(.state(.dismissed), of: record.id, at: date, source: source)
        }
    }
}
