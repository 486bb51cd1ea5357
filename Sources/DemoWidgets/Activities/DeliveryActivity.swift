import ActivityKit
import Foundation

/// The demo's delivery Live Activity: an order on its way, with its courier and when it should arrive.
///
/// It is the activity the README tour pushes to, chosen because its content state is easy to get wrong from a
/// server: `estimatedArrival` is a `Date`, which a device decodes with `JSONDecoder`'s default strategy, a number
/// of seconds since 2001-01-01. A push with ISO 8601 text there is dropped, and one with Unix seconds lands 31 years
/// late; `etaMinutes` must be a JSON number, not `"12"`; `status` must be one of its cases. The engine decodes
/// pushes exactly so, and records why it dropped one.
public struct DeliveryAttributes: ActivityAttributes, Sendable, Hashable {
    /// What changes while the order travels.
    public struct ContentState: Codable, Hashable, Sendable {
        /// Where the order is.
        public enum Status: String, Codable, Hashable, Sendable, CaseIterable {
            /// The restaurant is making it.
            case preparing
            /// The courier has it.
            case pickedUp
            /// The courier is riding to the customer.
            case onTheWay
            /// It has arrived: the activity ends with this.
            case delivered
        }

        /// Where the order is.
        public var status: Status
        /// Minutes until it arrives, as the courier's app estimates them.
        public var etaMinutes: Int
        /// When it should arrive (in JSON: seconds since 2001-01-01, `JSONEncoder`'s default).
        public var estimatedArrival: Date

        /// Creates a content state.
        public init(status: Status, etaMinutes: Int, estimatedArrival: Date) {
            self.status = status
            self.etaMinutes = etaMinutes
            self.estimatedArrival = estimatedArrival
        }
    }

    /// The order's id, as the app's links carry it (`ORD-2024-0001`).
    public var orderId: String
    /// Who delivers it.
    public var courierName: String

    /// Creates attributes.
    public init(orderId: String, courierName: String) {
        self.orderId = orderId
        self.courierName = courierName
    }
}

// MARK: Deep links

extension DeliveryAttributes {
    /// `myapp://delivery/<orderId>`: the whole activity's `widgetURL`, opening the order (route `delivery.order`).
    public var orderURL: URL {
        Self.deliveryURL(orderId: orderId, suffix: "")
    }

    /// `myapp://delivery/<orderId>/courier`: the activity's "contact courier" `Link` (route `delivery.courier`,
    /// which takes only `Link` taps: a Live Activity honours `Link`, where a small widget would open the order).
    public var courierURL: URL {
        Self.deliveryURL(orderId: orderId, suffix: "/courier")
    }

    private static func deliveryURL(orderId: String, suffix: String) -> URL {
        // The text is ASCII with every reserved character escaped, which always parses as a URL.
        URL(string: "myapp://delivery/\(pathSegment(orderId))\(suffix)")!
    }

    /// `text` as one path segment: every byte but RFC 3986's unreserved characters percent-escaped, so that an id
    /// with a `/` or `?` cannot reach another route.
    private static func pathSegment(_ text: String) -> String {
        var segment = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                segment.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                segment += String(format: "%%%02X", byte)
            }
        }
        return segment
    }
}

// MARK: Examples

extension DeliveryAttributes {
    /// The README tour's order; its id is the delivery routes' example.
    public static let example = DeliveryAttributes(orderId: "ORD-2024-0001", courierName: "Sam")
}

extension DeliveryAttributes.ContentState {
    /// When the tour's order is placed, 2026-11-25 18:00:00 UTC: fixed, so that the tour's JSON is the same on
    /// every run.
    public static let exampleStart = Date(timeIntervalSinceReferenceDate: 817_322_400)

    /// At the start: being prepared, 30 minutes away.
    public static let examplePreparing = Self(status: .preparing, etaMinutes: 30,
                                              estimatedArrival: exampleStart.addingTimeInterval(30 * 60))
    /// Twelve minutes in: picked up, arriving at 18:30 as planned.
    public static let examplePickedUp = Self(status: .pickedUp, etaMinutes: 18,
                                             estimatedArrival: exampleStart.addingTimeInterval(30 * 60))
    /// Twenty minutes in: on the way, five minutes late.
    public static let exampleOnTheWay = Self(status: .onTheWay, etaMinutes: 15,
                                             estimatedArrival: exampleStart.addingTimeInterval(35 * 60))
    /// Delivered at 18:34.
    public static let exampleDelivered = Self(status: .delivered, etaMinutes: 0,
                                              estimatedArrival: exampleStart.addingTimeInterval(34 * 60))
}
