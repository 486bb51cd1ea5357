/// A Live Activity's data: static attributes plus a changing ``ContentState``.
///
/// Mirrors [ActivityAttributes](https://developer.apple.com/documentation/activitykit/activityattributes).
public protocol ActivityAttributes: Decodable, Encodable {
    /// The part that changes over the activity's life; pushed as `content-state`, which must decode
    /// with default `JSONDecoder` strategies.
    associatedtype ContentState: Decodable, Encodable, Hashable
}
