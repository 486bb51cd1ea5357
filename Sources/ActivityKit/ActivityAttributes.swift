/// A Live Activity's data: static attributes plus a changing ``ContentState``.
///
/// Both are sent as JSON: `attributes` in a push-to-start, ``ContentState`` as a push's `content-state`, which the
/// device decodes with `JSONDecoder`'s default strategies and drops when that fails. (`SendableMetatype` lets the
/// host decode a type's JSON from any thread; every non-isolated type satisfies it.)
///
/// Mirrors [ActivityAttributes](https://developer.apple.com/documentation/activitykit/activityattributes).
public protocol ActivityAttributes: Decodable, Encodable, SendableMetatype {
    /// The part that changes over the activity's life.
    associatedtype ContentState: Decodable, Encodable, Hashable, SendableMetatype
}
