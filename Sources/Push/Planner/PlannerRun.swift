import Foundation
import JSON
import SharedState

/// The planner's decisions inside one write transaction: each submitted change or due activity is judged, its
/// decision recorded and its push queued in the outbox, all committed together (or not at all).
struct PlannerRun {
    let db: PushSQLConnection
    let bundleIdentifier: String
    private var policies: [String: PlannerPolicy] = [:]

    init(db: PushSQLConnection, bundleIdentifier: String) {
        self.db = db
        self.bundleIdentifier = bundleIdentifier
    }

    mutating func policy(_ attributesType: String) throws -> PlannerPolicy {
        if let cached = policies[attributesType] { return cached }
        let policy = try PushPlanner.policy(for: attributesType, db)
        policies[attributesType] = policy
        return policy
    }

    /// Judges a state change submitted at `at`.
    mutating func submit(_ change: StateChange, at: Date) throws -> PlannerDecision {
        let policy = try policy(change.attributesType)
        var activity = try PushPlanner.activity(change.activityID, db)
            ?? PushPlanner.Activity(id: change.activityID, attributesType: change.attributesType, firstAt: at, policy: policy)
        guard activity.attributesType == change.attributesType else {
            throw PushPlannerError.attributesTypeMismatch(activityID: activity.id, registered: activity.attributesType,
                                                          submitted: change.attributesType)
        }
        if let ended = activity.endedAt {
            return try record(activity, .afterEnd, "the planner ended this activity at \(Self.text(ended)); nothing more is sent",
                              at: at, state: change.state)
        }
        activity.frequentPushes = change.frequentPushes
        let decision = try judge(&activity, change.state, at: at, policy: policy)
        try activity.save(db)
        return decision
    }

    /// Decides about a live activity's new state, in order: the time limit, completion, significance, the minimum
    /// interval, then the budget (in ``send(_:_:at:policy:replaced:)``).
    private mutating func judge(_ activity: inout PushPlanner.Activity, _ state: JSONValue, at: Date,
                                policy: PlannerPolicy) throws -> PlannerDecision {
        if at >= activity.endsAt {
            return try end(&activity, state, .endedByTimeLimit, at: at, policy: policy)
        }
        if policy.completion.contains(where: { $0.matches(state) }) {
            return try end(&activity, state, .endedByCompletion, at: at, policy: policy)
        }
        let replaced = activity.pendingState != nil
        let alertWorthy = policy.alert.contains { $0.became(from: activity.lastState, to: state) }
        if let last = activity.lastState, let lastPush = activity.lastPushAt, !alertWorthy,
           !Self.isSignificant(from: last, to: state, policy) {
            guard last != state else {
                activity.pendingState = nil
                activity.pendingDue = nil
                return try record(activity, .skippedInsignificant, "the same state as the last push; nothing is held",
                                  at: at, state: state)
            }
            let due = lastPush.addingTimeInterval(policy.expectedInterval)
            return try hold(&activity, state, due: due, .skippedInsignificant, """
                below every significance rule; held as the latest state, sent with the next push or at the expected \
                interval (\(Int(policy.expectedInterval)) s after the last push)\(replaced ? ", replacing the held one" : "")
                """, at: at)
        }
        // A zero interval holds nothing, even when the last timestamp was bumped past `at`.
        if let lastPush = activity.lastPushAt, policy.minimumInterval > 0,
           at < lastPush.addingTimeInterval(policy.minimumInterval) {
            let due = lastPush.addingTimeInterval(policy.minimumInterval)
            return try hold(&activity, state, due: due, replaced ? .coalesced : .deferredByInterval, """
                the last push was \(Int(at.timeIntervalSince(lastPush))) s ago, less than the minimum interval of \
                \(Int(policy.minimumInterval)) s\(replaced ? "; replaces the held state, the latest goes out" : "")
                """, at: at)
        }
        return try send(&activity, state, at: at, policy: policy, replaced: replaced)
    }

    /// Sends (or ends) what `activity` holds when its time came: its held state at its due date, or its end at the
    /// time limit.
    mutating func flush(_ row: PushSQLRow, now: Date) throws -> PlannerDecision? {
        var activity = try PushPlanner.Activity(row)
        let policy = try policy(activity.attributesType)
        let decision: PlannerDecision
        if now >= activity.endsAt {
            decision = try end(&activity, activity.pendingState ?? activity.lastState ?? .object([:]), .endedByTimeLimit,
                               at: now, policy: policy)
        } else if let state = activity.pendingState, let due = activity.pendingDue, due <= now {
            decision = try send(&activity, state, at: now, policy: policy, replaced: false)
        } else {
            return nil
        }
        try activity.save(db)
        return decision
    }

    /// Queues an update now: at priority 10 with an alert when alert-worthy and in budget; held when alert-worthy
    /// and out of budget (until the budget frees or the expected interval passes, whichever is first).
    private mutating func send(_ activity: inout PushPlanner.Activity, _ state: JSONValue, at: Date,
                               policy: PlannerPolicy, replaced: Bool) throws -> PlannerDecision {
        var priority = PushHeaders.Priority.low
        var note = "priority 5: not alert-worthy"
        if policy.alert.contains(where: { $0.became(from: activity.lastState, to: state) }) {
            let budget = policy.highPriorityBudget(frequentPushes: activity.frequentPushes)
            let hourAgo = at.addingTimeInterval(-3600)
            let used = try PushOutbox.highPriorityCount(activityID: activity.id, since: hourAgo, db)
            if used < budget {
                priority = .high
                note = "priority 10 with an alert: alert-worthy, \(used + 1) of \(budget) this hour"
            } else {
                let heartbeat = activity.lastPushAt.map { $0.addingTimeInterval(policy.expectedInterval) } ?? at
                let frees = try PushOutbox.oldestHighPriority(activityID: activity.id, since: hourAgo, db)?
                    .addingTimeInterval(3600) ?? at
                if at < heartbeat {
                    return try hold(&activity, state, due: min(heartbeat, max(frees, at.addingTimeInterval(1))),
                                    replaced ? .coalesced : .deferredByBudget, """
                        alert-worthy, but the \(budget) priority-10 pushes of the hour are used; held until the budget \
                        frees or the expected interval passes
                        """, at: at)
                }
                note = "priority 5 without an alert: alert-worthy, but the \(budget) priority-10 pushes of the hour are used"
            }
        }
        let timestamp = Self.timestamp(at, after: activity.lastPushAt)
        var push = LiveActivityPush(event: .update, timestamp: timestamp)
        push.contentState = state
        push.staleDate = timestamp.addingTimeInterval(policy.effectiveStaleInterval)
        if priority == .high { push.alert = LiveActivityAlert(title: .plain(policy.alertTitle), body: .plain(policy.alertBody)) }
        return try queue(&activity, push, state, priority: priority, at: at, .sent, """
            \(note); stale at \(Self.text(push.staleDate ?? timestamp))
            """)
    }

    /// Queues an end with the final state and a dismissal date; the activity takes no more pushes.
    private mutating func end(_ activity: inout PushPlanner.Activity, _ state: JSONValue, _ kind: PlannerDecision.Kind,
                              at: Date, policy: PlannerPolicy) throws -> PlannerDecision {
        let timestamp = Self.timestamp(at, after: activity.lastPushAt)
        var push = LiveActivityPush(event: .end, timestamp: timestamp)
        push.contentState = state
        push.dismissalDate = timestamp.addingTimeInterval(policy.dismissalDelay)
        var priority = PushHeaders.Priority.low
        if policy.alert.contains(where: { $0.became(from: activity.lastState, to: state) }),
           try PushOutbox.highPriorityCount(activityID: activity.id, since: at.addingTimeInterval(-3600), db)
            < policy.highPriorityBudget(frequentPushes: activity.frequentPushes) {
            priority = .high
            push.alert = LiveActivityAlert(title: .plain(policy.alertTitle), body: .plain(policy.alertBody))
        }
        let why = kind == .endedByCompletion
            ? "a completion rule holds"
            : "\(Self.duration(policy.endAfter)) after the first change, before the system's 8-hour limit"
        activity.endedAt = timestamp
        activity.pendingState = nil
        activity.pendingDue = nil
        return try queue(&activity, push, state, priority: priority, at: at, kind, """
            \(why); dismissed at \(Self.text(push.dismissalDate ?? timestamp)), priority \(priority.rawValue)
            """)
    }

    /// Writes the push into the outbox addressed to the activity's current token, with its decision; `no_token`
    /// and nothing queued when the registry has none.
    private func queue(_ activity: inout PushPlanner.Activity, _ push: LiveActivityPush, _ state: JSONValue,
                       priority: PushHeaders.Priority, at: Date, _ kind: PlannerDecision.Kind,
                       _ reason: String) throws -> PlannerDecision {
        guard let token = try PushTokenRegistry.usableActivityToken(activity.id, db) else {
            activity.pendingState = nil
            activity.pendingDue = nil
            return try record(activity, .noToken, """
                no usable update token is registered for the activity (PUT /v1/push/tokens/activities/\(activity.id)); \
                would have been: \(kind.rawValue)
                """, at: at, state: state)
        }
        let payload: Data
        let headers: PushHeaders
        do {
            payload = try push.payload()
            headers = try push.headers(bundleIdentifier: bundleIdentifier, priority: priority)
        } catch {
            throw PushPlannerError.unbuildable(error.description)
        }
        let outbox = OutboxPush(apnsID: UUID(), activityID: activity.id, event: push.event, deviceToken: token,
                                headers: headers, payload: payload, createdAt: push.timestamp, dueAt: at,
                                status: .pending, attempts: 0, lastResult: nil)
        try PushOutbox.insert(outbox, db)
        activity.lastPushAt = push.timestamp
        activity.lastState = state
        if kind == .sent {
            activity.pendingState = nil
            activity.pendingDue = nil
        }
        return try PushPlanner.record(PlannerDecision(
            id: 0, activityID: activity.id, at: at, kind: kind, reason: reason, state: state, apnsID: outbox.apnsID,
            priority: priority.rawValue, dueAt: nil), db)
    }

    private func hold(_ activity: inout PushPlanner.Activity, _ state: JSONValue, due: Date, _ kind: PlannerDecision.Kind,
                      _ reason: String, at: Date) throws -> PlannerDecision {
        activity.pendingState = state
        activity.pendingDue = due
        return try PushPlanner.record(PlannerDecision(
            id: 0, activityID: activity.id, at: at, kind: kind, reason: reason + "; due at \(Self.text(due))",
            state: state, dueAt: due), db)
    }

    private func record(_ activity: PushPlanner.Activity, _ kind: PlannerDecision.Kind, _ reason: String, at: Date,
                        state: JSONValue) throws -> PlannerDecision {
        try PushPlanner.record(PlannerDecision(id: 0, activityID: activity.id, at: at, kind: kind, reason: reason,
                                               state: state), db)
    }

    /// Whether `new` differs from the last pushed state enough: any difference without rules, otherwise any rule.
    static func isSignificant(from old: JSONValue, to new: JSONValue, _ policy: PlannerPolicy) -> Bool {
        policy.significance.isEmpty ? old != new : policy.significance.contains { $0.holds(from: old, to: new) }
    }

    /// A push's timestamp: `at` in whole seconds, but at least a second after the last push, since the device
    /// ignores a push whose timestamp is not later than the last one it applied.
    static func timestamp(_ at: Date, after last: Date?) -> Date {
        let seconds = at.timeIntervalSince1970.rounded(.down)
        let floor = last.map { $0.timeIntervalSince1970.rounded(.down) + 1 } ?? seconds
        return Date(timeIntervalSince1970: max(seconds, floor))
    }

    static func text(_ date: Date) -> String {
        DateTimeText.string(from: date)
    }

    static func duration(_ seconds: TimeInterval) -> String {
        let minutes = Int(seconds / 60)
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
