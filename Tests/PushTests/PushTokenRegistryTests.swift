import Foundation
import Push
import SharedState
import Synchronization
import Testing

@Suite("Push token registry")
struct PushTokenRegistryTests {
    /// A clock the test moves.
    final class TestClock: Sendable {
        private let value = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { value.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { value.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// A registry on disk with a clock the test moves.
    struct Fixture {
        let clock = TestClock()
        let path: String
        let registry: PushTokenRegistry

        init() throws {
            path = FileManager.default.temporaryDirectory
                .appendingPathComponent("push-tokens-\(UUID().uuidString).sqlite").path
            let clock = self.clock
            registry = try PushTokenRegistry(database: DatabaseStore(path: path), now: { clock.now })
        }

        func advance(_ seconds: TimeInterval) {
            clock.advance(seconds)
        }

        /// The same file opened again, as a restarted daemon would.
        func reopened() throws -> PushTokenRegistry {
            let clock = self.clock
            return try PushTokenRegistry(database: DatabaseStore(path: path), now: { clock.now })
        }
    }

    static func token(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }

    @Test("registering is idempotent; a new token rotates the slot and keeps the old one in the history")
    func rotation() throws {
        let fixture = try Fixture()
        let slot = PushTokenSlot.pushToStart(device: "phone-1", attributesType: "DeliveryAttributes")
        #expect(try fixture.registry.register(Self.token(1), in: slot) == .created)
        #expect(try fixture.registry.register(Self.token(1), in: slot) == .unchanged)
        fixture.advance(60)
        #expect(try fixture.registry.register(Self.token(2), in: slot) == .rotated(previous: Self.token(1)))
        let history = try fixture.registry.history(slot)
        #expect(history.map(\.token) == [Self.token(1), Self.token(2)])
        #expect(history.first?.replacedAt == fixture.clock.now)
        #expect(try fixture.registry.current(slot)?.token == Self.token(2))
        #expect(try fixture.registry.current(.pushToStart(device: "phone-1", attributesType: "Other")) == nil)
        // Durable: a restarted registry reads the same history.
        #expect(try fixture.reopened().history(slot) == history)
    }

    @Test("an invalidated token is never current again and cannot be registered again")
    func invalidation() throws {
        let fixture = try Fixture()
        let slot = PushTokenSlot.activity(id: "act-1")
        try fixture.registry.register(Self.token(3), in: slot, device: "phone-1", attributesType: "DeliveryAttributes")
        try fixture.registry.invalidate(Self.token(3), reason: "Unregistered")
        #expect(try fixture.registry.current(slot) == nil)
        let record = try #require(try fixture.registry.lookup(Self.token(3)))
        #expect(record.invalidReason == "Unregistered" && !record.isUsable && record.device == "phone-1")
        #expect(throws: PushTokenError.invalidated(token: PushTokenText.hex(Self.token(3)), reason: "Unregistered")) {
            try fixture.registry.register(Self.token(3), in: slot)
        }
        #expect(throws: PushTokenError.unknownToken(PushTokenText.hex(Self.token(9)))) {
            try fixture.registry.invalidate(Self.token(9), reason: "x")
        }
        #expect(try fixture.registry.history(slot).count == 1)
    }

    @Test("a token belongs to one slot; widget kinds update without a rotation; bad identifiers are refused")
    func slots() throws {
        let fixture = try Fixture()
        try fixture.registry.register(Self.token(4), in: .widgets(device: "phone-1"), widgetKinds: ["TaskList"])
        #expect(throws: PushTokenError.self) {
            try fixture.registry.register(Self.token(4), in: .widgets(device: "phone-2"))
        }
        #expect(try fixture.registry.register(Self.token(4), in: .widgets(device: "phone-1"),
                                              widgetKinds: ["TaskList", "Daily"]) == .unchanged)
        #expect(try fixture.registry.current(.widgets(device: "phone-1"))?.widgetKinds == ["TaskList", "Daily"])
        for bad in ["", "a\u{0}b", String(repeating: "x", count: 257)] {
            #expect(throws: PushTokenError.invalidIdentifier(field: "device", value: bad)) {
                try fixture.registry.register(Self.token(5), in: .widgets(device: bad))
            }
        }
        #expect(try fixture.registry.lookup(Self.token(5)) == nil)
        #expect(try fixture.registry.tokens(device: "phone-1").map(\.token) == [Self.token(4)])
    }

    @Test("hex text: either case reads, odd lengths and other characters are refused")
    func hex() {
        #expect(PushTokenText.token("00fFAb") == Data([0x00, 0xFF, 0xAB]))
        #expect(PushTokenText.hex(Data([0x00, 0xFF, 0xAB])) == "00ffab")
        for bad in ["", "0", "0g", "00 1", "+1", String(repeating: "a", count: 402)] {
            #expect(PushTokenText.token(bad) == nil, "\(bad)")
        }
        #expect(PushTokenText.random() != PushTokenText.random())
    }
}

@Suite("Push channel registry")
struct PushChannelRegistryTests {
    @Test("a channel registers once, for one type; closed, it is kept and never opened again")
    func lifecycle() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("channels-\(UUID().uuidString).sqlite").path
        let clock = PushTokenRegistryTests.TestClock()
        let channels = try PushChannelRegistry(database: DatabaseStore(path: path), now: { clock.now })
        #expect(try channels.register("match-42", attributesType: "ScoreAttributes"))
        #expect(try !channels.register("match-42", attributesType: "ScoreAttributes"))
        #expect(throws: PushChannelError.otherType("match-42", registered: "ScoreAttributes")) {
            try channels.register("match-42", attributesType: "Other")
        }
        clock.advance(60)
        try channels.close("match-42", reason: "match over")
        #expect(throws: PushChannelError.closed("match-42", reason: "match over")) {
            try channels.register("match-42", attributesType: "ScoreAttributes")
        }
        #expect(try channels.channels().isEmpty)
        let reopened = try PushChannelRegistry(database: DatabaseStore(path: path), now: { clock.now })
        let kept = try #require(try reopened.channels(includingClosed: true).first)
        #expect(kept.closeReason == "match over" && kept.closedAt == clock.now)
        #expect(throws: PushChannelError.unknown("nope")) { try channels.close("nope", reason: "x") }
        #expect(throws: PushTokenError.invalidIdentifier(field: "channel id", value: "")) {
            try channels.register("", attributesType: "ScoreAttributes")
        }
    }
}
