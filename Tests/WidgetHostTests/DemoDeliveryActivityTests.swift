import ActivityKit
import DeepLinks
import DemoWidgets
import Foundation
import Testing

@Suite("The demo's delivery Live Activity")
struct DemoDeliveryActivityTests {
    typealias State = DeliveryAttributes.ContentState

    static func deliveryType() throws -> ActivityAttributesType {
        let types = DemoCatalog.make().activityTypes.filter { $0.name == "DeliveryAttributes" }
        try #require(types.count == 1)
        return types[0]
    }

    static func normalized(_ json: String) throws -> Data {
        try deliveryType().normalizedContentState(Data(json.utf8))
    }

    @Test("the demo catalog registers DeliveryAttributes")
    func registered() throws {
        #expect(DemoCatalog.make().activityTypes.map(\.name) == ["DeliveryAttributes"])
        let attributes = try Self.deliveryType().normalizedAttributes(
            Data(#"{"courierName":"Sam","orderId":"ORD-2024-0001"}"#.utf8))
        #expect(try JSONDecoder().decode(DeliveryAttributes.self, from: attributes) == .example)
    }

    @Test("content states a device would drop are refused", arguments: [
        #"{"status":"onTheWay","etaMinutes":"12","estimatedArrival":817323600}"#,
        #"{"status":"onTheWay","etaMinutes":12,"estimatedArrival":"2026-11-25T18:20:00Z"}"#,
        #"{"status":"lost","etaMinutes":12,"estimatedArrival":817323600}"#,
        #"{"status":"onTheWay","estimatedArrival":817323600}"#,
    ])
    func refused(json: String) throws {
        #expect(throws: DecodingError.self) { try Self.normalized(json) }
    }

    @Test("a correct content state round-trips, with its date in seconds since 2001")
    func roundTrip() throws {
        let json = #"{"status":"onTheWay","etaMinutes":12,"estimatedArrival":817323600}"#
        let normalized = try Self.normalized(json)
        let decoded = try JSONDecoder().decode(State.self, from: normalized)
        #expect(decoded == State(status: .onTheWay, etaMinutes: 12,
                                 estimatedArrival: Date(timeIntervalSinceReferenceDate: 817_323_600)))
        #expect(String(decoding: normalized, as: UTF8.self)
                == #"{"estimatedArrival":817323600,"etaMinutes":12,"status":"onTheWay"}"#)
        for example in [State.examplePreparing, .examplePickedUp, .exampleOnTheWay, .exampleDelivered] {
            let encoded = try JSONEncoder().encode(example)
            #expect(try JSONDecoder().decode(State.self, from: Self.normalized(String(decoding: encoded, as: UTF8.self)))
                    == example)
        }
    }

    @Test("Unix seconds decode, but 31 years late: the mistake the date strategy invites")
    func unixSeconds() throws {
        let intended = State.exampleOnTheWay.estimatedArrival
        let json = #"{"status":"onTheWay","etaMinutes":15,"estimatedArrival":\#(Int(intended.timeIntervalSince1970))}"#
        let decoded = try JSONDecoder().decode(State.self, from: Self.normalized(json))
        #expect(decoded.estimatedArrival.timeIntervalSince(intended) == Date.timeIntervalBetween1970AndReferenceDate)
    }

    @Test("the order and courier links reach their routes in Routes/delivery.routes")
    func deepLinks() throws {
        let table = try RouteTable.load(directory: defaultRoutesDirectory)
        let example = DeliveryAttributes.example
        #expect(example.orderURL.absoluteString == "myapp://delivery/ORD-2024-0001")
        #expect(example.courierURL.absoluteString == "myapp://delivery/ORD-2024-0001/courier")
        #expect(try table.url(for: "delivery.order", parameters: ["orderId": example.orderId])
                == example.orderURL.absoluteString)
        #expect(try table.url(for: "delivery.courier", parameters: ["orderId": example.orderId])
                == example.courierURL.absoluteString)

        let order = try #require(table.firstMatch(example.orderURL.absoluteString,
                                                  context: TapContext(source: .widgetURL, family: .liveActivity)))
        #expect(order.routeName == "delivery.order" && order.target == "DeliveryOrder")
        #expect(order.parameters == ["orderId": "ORD-2024-0001"])
        let courier = try #require(table.firstMatch(example.courierURL.absoluteString,
                                                    context: TapContext(source: .link, family: .liveActivity)))
        #expect(courier.routeName == "delivery.courier" && courier.target == "DeliveryCourierChat")
        #expect(courier.parameters == ["orderId": "ORD-2024-0001"])
        #expect(table.firstMatch(example.courierURL.absoluteString, context: TapContext(source: .widgetURL)) == nil,
                "the courier route takes Link taps only")

        let sneaky = DeliveryAttributes(orderId: "ORD-1/courier", courierName: "Sam")
        #expect(sneaky.orderURL.absoluteString == "myapp://delivery/ORD-1%2Fcourier")
        #expect(table.firstMatch(sneaky.orderURL.absoluteString)?.routeName != "delivery.courier")
    }
}
