import Foundation
import SharedState

extension WidgetEngine {
    /// Ranks a stack at `time` (default: now): each instance's score with its parts, and the top after the
    /// rotation rules (``StackRanker``).
    ///
    /// The top and since when are stored (unless `time` is before the stored state: a historical question is
    /// answered without changing anything), so repeated calls and a restarted engine give a stable top.
    /// - Throws: ``SmartStackError/unknownStack(_:)``, or a store error.
    public func rankStack(_ id: String, at time: Date? = nil, policy: RankingPolicy = .default) throws
        -> StackRanking {
        let now = time ?? clock.now
        let ranker = StackRanker(policy: policy)
        let (inputs, incumbent) = try store.read { db in
            let stack = try Self.stack(id, db)
            return (try rankingInputs(stack, at: now, policy: policy, db), try Self.incumbent(of: id, db))
        }
        let ordered = ranker.ordered(inputs.map(ranker.score))
        let outcome = ranker.decide(ordered, incumbent: incumbent, at: now)
        if outcome.shouldStore, let top = outcome.top, let since = outcome.since {
            try store.write { db in
                try db.execute("""
                    INSERT INTO smart_stack_rotation(stack_id, top_instance_id, since, evaluated_at)
                    VALUES (?, ?, ?, ?)
                    ON CONFLICT(stack_id) DO UPDATE SET top_instance_id = excluded.top_instance_id,
                        since = excluded.since, evaluated_at = excluded.evaluated_at
                    """, [.text(id), .text(top), since.sqlValue, now.sqlValue])
            }
        }
        let topFirst = ordered.filter { $0.instanceID == outcome.top } + ordered.filter { $0.instanceID != outcome.top }
        return StackRanking(stackID: id, evaluatedAt: now, top: outcome.top, topSince: outcome.since,
                            decision: outcome.decision, instances: topFirst, policy: policy)
    }

    private static func incumbent(of stackID: String, _ db: Database) throws -> StackRanker.Incumbent? {
        guard let row = try db.queryOne("SELECT top_instance_id, since FROM smart_stack_rotation WHERE stack_id = ?",
                                        [.text(stackID)]),
              let top = row.string("top_instance_id"), let since = row.date("since") else { return nil }
        return StackRanker.Incumbent(instanceID: top, since: since)
    }

    private func rankingInputs(_ stack: SmartStack, at time: Date, policy: RankingPolicy, _ db: Database) throws
        -> [StackRanker.Input] {
        var instances: [WidgetInstance] = []
        for id in stack.instanceIDs {
            guard let instance = try store.instance(id: id, db) else { continue }
            instances.append(instance)
        }
        var scales: [String: Float] = [:]
        for kind in Set(instances.map(\.kind)) { scales[kind] = try Self.relevanceScale(ofKind: kind, db) }
        let donationHorizon = time.addingTimeInterval(-policy.donationHalfLife * policy.horizonHalfLives)
        let tapHorizon = time.addingTimeInterval(-policy.tapHalfLife * policy.horizonHalfLives)
        let relevant = try db.query("SELECT widget_kind, intent_type, parameters, context FROM relevant_intents")
            .map(Self.relevantIntent)
        var donationsByType: [String: [DonationRecord]] = [:]
        var inputs: [StackRanker.Input] = []
        for (position, instance) in instances.enumerated() {
            let configuration = try store.configuration(key: instance.configurationKey, db)
            let parameters = configuration?.parameters ?? [:]
            let previous = try Self.previousTimeline(configurationKey: instance.configurationKey, db)
            let entry = EntryRelevance.evaluate(configuration?.timeline, previous: previous, at: time)
            var donationAges: [TimeInterval] = []
            if let intentType = catalog.descriptor(kind: instance.kind)?.intentTypeName {
                if donationsByType[intentType] == nil {
                    donationsByType[intentType] = try db.query("""
                        SELECT id, intent_type, parameters, donated_at FROM intent_donations
                        WHERE intent_type = ? AND donated_at > ? AND donated_at <= ?
                        """, [.text(intentType), donationHorizon.sqlValue, time.sqlValue]).map(Self.donation)
                }
                donationAges = (donationsByType[intentType] ?? [])
                    .filter { DonationRecord.parameters($0.parameters, match: parameters) }
                    .map { time.timeIntervalSince($0.donatedAt) }
            }
            let context = relevant
                .filter { $0.widgetKind == instance.kind && DonationRecord.parameters($0.parameters, match: parameters) }
                .map { $0.weight(at: time, reach: policy.exactDateReach) }.max() ?? 0
            let tapAges = try Self.tapTimes(of: instance, from: tapHorizon, through: time, db)
                .map { time.timeIntervalSince($0) }
            inputs.append(StackRanker.Input(
                instanceID: instance.id, kind: instance.kind, family: instance.family, position: position,
                entry: entry, scale: scales[instance.kind], donationAges: donationAges, context: context,
                tapAges: tapAges))
        }
        return inputs
    }

    /// The kind's scale: the highest positive score any stored timeline (current or previous) of the kind
    /// declares. Apple: scores are relative within one widget's own scale, which it keeps across timelines.
    private static func relevanceScale(ofKind kind: String, _ db: Database) throws -> Float? {
        let rows = try db.query("""
            SELECT c.timeline AS timeline FROM configurations c WHERE c.kind = ? AND c.timeline IS NOT NULL
            UNION ALL
            SELECT p.timeline FROM relevance_previous_timelines p JOIN configurations c ON c.key = p.configuration_key
            WHERE c.kind = ?
            """, [.text(kind), .text(kind)])
        var best: Float?
        for row in rows {
            let timeline = try EngineCoding.value(StoredTimeline.self, from: row.string("timeline"), column: "timeline")
            if let top = EntryRelevance.positiveScores(timeline).max() { best = max(best ?? top, top) }
        }
        return best
    }

    private static func previousTimeline(configurationKey key: String, _ db: Database) throws -> StoredTimeline? {
        guard let text = try db.scalar("SELECT timeline FROM relevance_previous_timelines WHERE configuration_key = ?",
                                       [.text(key)], as: String.self) else { return nil }
        return try EngineCoding.value(StoredTimeline.self, from: text, column: "relevance_previous_timelines.timeline")
    }

    /// Taps on this instance (by id), and taps recorded by kind and family only, which count for every instance
    /// of that kind and family.
    private static func tapTimes(of instance: WidgetInstance, from start: Date, through end: Date,
                                 _ db: Database) throws -> [Date] {
        let byID = try db.query("""
            SELECT tapped_at FROM taps WHERE instance_id = ? AND tapped_at > ? AND tapped_at <= ?
            """, [.text(instance.id), start.sqlValue, end.sqlValue])
        let byKind = try db.query("""
            SELECT tapped_at FROM taps WHERE tapped_at > ? AND tapped_at <= ? AND kind = ? AND family = ?
            AND instance_id IS NULL
            """, [start.sqlValue, end.sqlValue, .text(instance.kind), .text(instance.family)])
        return (byID + byKind).compactMap { $0.date("tapped_at") }
    }
}
