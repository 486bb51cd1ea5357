import Foundation
import JSON
import WidgetKit

/// Turns a provider's typed entry into an ``EntrySnapshot``.
///
/// Entries that are `Encodable` are encoded (dates as ISO 8601); others are read through `Mirror`, property by
/// property, so iOS entry types that were never made `Codable` still serve over the API. `date` and `relevance`
/// are lifted out of the content into the snapshot's own fields.
enum EntryContentEncoder {
    /// How deep nested values are followed through `Mirror` before they are described as text.
    static let maximumDepth = 8

    /// Members of an entry's encoded form that the snapshot keeps in fields of its own.
    private static let liftedKeys = ["date", "relevance"]

    static func snapshot(of entry: some TimelineEntry) -> EntrySnapshot {
        snapshot(of: entry, encoder: JSONTextEncoder())
    }

    /// The snapshots of a timeline's entries, in order, encoded by one encoder (its buffers reused).
    static func snapshots<Entry: TimelineEntry>(of entries: [Entry]) -> [EntrySnapshot] {
        let encoder = JSONTextEncoder()
        if let encodable = Entry.self as? any Encodable.Type {
            // One conformance look-up for the timeline, not a dynamic cast per entry.
            return snapshots(of: entries, as: encodable, encoder: encoder)
        }
        return entries.map { snapshot(of: $0, encoder: encoder) }
    }

    /// Entries of an `Encodable` type: their texts written one after another into one buffer, which the
    /// snapshots share (an array per entry, made on the provider's side and freed on the commit's, cost more than
    /// writing the text).
    private static func snapshots<Entry: TimelineEntry, Encoded: Encodable>(
        of entries: [Entry], as encoded: Encoded.Type, encoder: JSONTextEncoder) -> [EntrySnapshot] {
        precondition(Entry.self == Encoded.self, "opened from Entry.self")
        var encodedEntries: [EncodedEntry] = []
        encodedEntries.reserveCapacity(entries.count)
        // By index, and into values of concrete types: this function is not specialized (its types are opened at
        // run time), and a generic `zip` or iterator pays a metadata look-up per element.
        for index in entries.indices {
            let entry = entries[index]
            do {
                let range = try encoder.append(unsafeBitCast(entry, to: Encoded.self), omittingTopLevelKeys: liftedKeys)
                if encodedEntries.isEmpty { encoder.reserveOutputCapacity(range.count * (entries.count - 1) + 64) }
                let relevance = entry.relevance
                encodedEntries.append(.text(range, date: entry.date, relevanceScore: relevance?.score,
                                            relevanceDuration: relevance?.duration))
            } catch {
                // The routes for what the text encoder refuses.
                encodedEntries.append(.snapshot(snapshot(of: entry, encoder: encoder)))
            }
        }
        let text = encoder.takeOutput()
        return encodedEntries.map { encoded in
            switch encoded {
            case .text(let range, let date, let relevanceScore, let relevanceDuration):
                EntrySnapshot(date: date, relevanceScore: relevanceScore, relevanceDuration: relevanceDuration,
                              contentText: text[range])
            case .snapshot(let snapshot):
                snapshot
            }
        }
    }

    private static func snapshot(of entry: some TimelineEntry, encoder: JSONTextEncoder) -> EntrySnapshot {
        let score = entry.relevance?.score
        let duration = entry.relevance?.duration
        if let encodable = entry as? any Encodable {
            do {
                // Straight to the text the engine stores: building a `JSONValue` first cost more than most
                // providers, and a rebuild never looks into the content.
                let text = try encoder.encode(encodable, omittingTopLevelKeys: liftedKeys)
                return EntrySnapshot(date: entry.date, relevanceScore: score, relevanceDuration: duration,
                                     contentText: text[...])
            } catch is JSONValueEncoder.Unsupported {
                // A shape only `JSONEncoder` knows (`superEncoder`, `Decimal`): the text route below.
            } catch {
                return snapshot(of: entry, content: mirroredContent(entry, depth: 0))
            }
        }
        return snapshot(of: entry, content: foundationEncodedContent(entry) ?? mirroredContent(entry, depth: 0))
    }

    private static func snapshot(of entry: some TimelineEntry, content: JSONValue) -> EntrySnapshot {
        var content = content
        if case .object(var members) = content {
            content = .null   // `members` is then the dictionary's only owner: edited in place, not copied
            for key in liftedKeys { members[key] = nil }
            content = .object(members)
        }
        return EntrySnapshot(date: entry.date, relevanceScore: entry.relevance?.score,
                             relevanceDuration: entry.relevance?.duration, content: content)
    }

    private static func foundationEncodedContent(_ entry: some TimelineEntry) -> JSONValue? {
        guard let encodable = entry as? any Encodable else { return nil }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(encodable) else { return nil }
        return try? JSONParser.parse(data)
    }

    private static func mirroredContent(_ value: Any, depth: Int) -> JSONValue {
        switch value {
        case let value as String: return .string(value)
        case let value as Bool: return .bool(value)
        case let value as Int: return .int(value)
        case let value as Double: return value.isFinite ? .double(value) : .string("\(value)")
        case let value as Float: return value.isFinite ? .double(Double(value)) : .string("\(value)")
        case let value as Date: return .string(value.formatted(Date.ISO8601FormatStyle()))
        case let value as URL: return .string(value.absoluteString)
        case let value as UUID: return .string(value.uuidString)
        case let value as any BinaryInteger: return .int(Int(truncatingIfNeeded: value))
        default: break
        }
        let mirror = Mirror(reflecting: value)
        guard depth < maximumDepth else { return .string(String(describing: value)) }
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { mirroredContent($0.value, depth: depth + 1) } ?? .null
        case .collection, .set:
            return .array(mirror.children.map { mirroredContent($0.value, depth: depth + 1) })
        case .dictionary:
            var members: [String: JSONValue] = [:]
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { continue }
                members[String(describing: pair[0].value)] = mirroredContent(pair[1].value, depth: depth + 1)
            }
            return .object(members)
        case .struct, .class:
            var members: [String: JSONValue] = [:]
            for child in mirror.children {
                guard let label = child.label else { continue }
                members[label] = mirroredContent(child.value, depth: depth + 1)
            }
            return .object(members)
        default:
            // Enums, tuples and anything newer: their description is the most faithful plain form.
            return .string(String(describing: value))
        }
    }
}

/// One entry of a timeline being encoded: where its text is in the timeline's buffer, or its snapshot made another
/// way when the text encoder refused it.
private enum EncodedEntry {
    case text(Range<Int>, date: Date, relevanceScore: Float?, relevanceDuration: TimeInterval?)
    case snapshot(EntrySnapshot)
}

extension ReloadPolicyRecord {
    /// The engine's copy of a provider's reload policy.
    init(_ policy: TimelineReloadPolicy) {
        switch policy.kind {
        case .atEnd: self = .atEnd
        case .never: self = .never
        case .after(let date): self = .after(date)
        }
    }
}
