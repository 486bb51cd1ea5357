import ActivityKit
import Foundation
import JSON

/// A JSON Schema (a draft 2020-12 subset) of a `ContentState`, derived from the Swift type itself.
///
/// The type is decoded once from a probing `Decoder` (``SchemaProbe``) that answers every request with a sample
/// value and records what was asked: the members and their types, which are optional, what arrays hold. So the
/// schema is what the type's `init(from:)` really reads, `CodingKeys` and custom initializers included, as
/// `JSONDecoder` with default strategies reads it (dates are numbers: seconds since 2001-01-01).
///
/// Limits, each visible in the schema:
/// - An enum's values are listed only when it is `CaseIterable` and `RawRepresentable`; otherwise its raw type
///   (`"type": "string"`) is given and the probe cannot build a sample, so the members its container decodes after
///   it are missing and `$comment` says where the probe stopped. A type whose initializer validates the sample
///   (or any other thrown error) stops it the same way.
/// - A recursive type is probed once; its inner occurrence is `{}` (anything).
/// - Dictionaries are `additionalProperties` only when keyed by `String`; minimum/maximum of sized integers, string
///   formats other than dates, URLs, UUIDs and data are not described.
public enum ContentStateSchema {
    /// The schema of `Attributes.ContentState`, titled as the checker names it (`ParcelAttributes.ContentState`).
    public static func schema<Attributes: ActivityAttributes>(for type: Attributes.Type) -> JSONValue {
        schema(of: Attributes.ContentState.self, title: ActivityAttributesType(type).name + ".ContentState")
    }

    /// The schema of any `Decodable` type.
    public static func schema<Value: Decodable>(of type: Value.Type, title: String) -> JSONValue {
        let root = ProbeSlot()
        var stop: String?
        do {
            _ = try SchemaProbe.sample(type, into: root, context: ProbeContext(depth: 0, inProgress: [], path: []))
        } catch let error as ProbeStop {
            stop = error.description
        } catch {
            stop = "the probe stopped: \(error)"
        }
        guard case .object(var members) = root.json else { return root.json }
        members["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        members["title"] = .string(title)
        if let stop { members["$comment"] = .string(stop) }
        return .object(members)
    }
}
