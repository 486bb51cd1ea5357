import Foundation
import HTTPServer
import JSON
import Push
import WidgetHost

/// The engine's clock: read it; on a virtual clock, set or advance it.
///
/// - `GET /v1/clock` → ``V1/Clock``
/// - `PUT /v1/clock` ``V1/SetClockRequest`` → ``V1/ClockChange``: sets the time (a user changing the device's
///   date), then runs the reloads due at the new time; 409 `clock_not_virtual`, 422 `invalid_date` for a `now`
///   that is not a real instant of ``settableFormat``
/// - `POST /v1/clock/advance` ``V1/AdvanceClockRequest`` → ``V1/ClockChange``: moves the clock forwards by
///   `seconds` (0 to 2 days), running every reload that comes due on the way at its own due time;
///   409 `clock_not_virtual`, 400 `invalid_field`
///
/// Both also flush the push planner: advancing stops at each ``PushPlanner/nextFlushDate()`` on the way, so held
/// states go out stamped with the time they came due, as the daemon's scheduler sends them on a real clock.
enum ClockResource: APIResource {
    /// The furthest one advance may move the clock: 2 days. Each reload due on the way runs in the request (about
    /// 10 ms each in a debug build; a widget reloading every 30 minutes makes 96 in 2 days), so a longer jump is
    /// several calls and no single request runs for long.
    static let maximumAdvance: TimeInterval = 2 * 24 * 3600
    /// The date-times a virtual clock may be set to: years 2000 to 2199, in UTC (`Z`); anything else is 422
    /// `invalid_date`.
    static let settableFormat = DateTimeFormat(years: 2000...2199, zones: .utcOnly, yearPattern: "2[01][0-9]{2}")

    static func register(in router: inout APIRouter, context: APIContext) {
        let engine = context.engine
        let mode = context.isVirtualClock ? "virtual" : "system"

        // The zone is read per request, not here: looking it up loads ICU's zone data, which an idle daemon does
        // without (see `WidgetEngine.timeZone`).
        router.get("/v1/clock") { _, _ in
            .json(V1.Clock(now: engine.clock.now, mode: mode, timeZone: engine.timeZone.identifier))
        }

        router.put("/v1/clock") { request, _ in
            let body = try request.decode(V1.SetClockRequest.self)
            guard context.isVirtualClock else { throw APIError(ClockError.notVirtual) }
            let records = try await mappingEngineErrors {
                try await engine.setClock(to: body.now)
                let records = try await engine.runDueReloads()
                try context.push.planner.flush(now: engine.clock.now)
                return records
            }
            return .json(V1.ClockChange(now: engine.clock.now, mode: mode, timeZone: engine.timeZone.identifier,
                                        reloads: records.map(V1.Reload.init)))
        }

        router.post("/v1/clock/advance") { request, _ in
            let body = try request.decode(V1.AdvanceClockRequest.self)
            guard context.isVirtualClock else { throw APIError(ClockError.notVirtual) }
            guard body.seconds >= 0, body.seconds <= maximumAdvance else {
                throw APIError.invalidField("seconds", "expected 0 to \(Int(maximumAdvance)) seconds")
            }
            let records = try await mappingEngineErrors {
                try await advance(engine, flushing: context.push.planner, to: engine.clock.now.addingTimeInterval(body.seconds))
            }
            return .json(V1.ClockChange(now: engine.clock.now, mode: mode, timeZone: engine.timeZone.identifier,
                                        reloads: records.map(V1.Reload.init)))
        }
    }

    /// Advances the engine's clock to `target`, stopping at each planner flush date on the way to flush there.
    static func advance(_ engine: WidgetEngine, flushing planner: PushPlanner, to target: Date) async throws -> [ReloadRecord] {
        var records: [ReloadRecord] = []
        while let next = try planner.nextFlushDate(), next <= target {
            if next > engine.clock.now { records += try await engine.advanceClock(to: next) }
            // Every flush clears or moves each due state past `now`, so the loop ends.
            guard try !planner.flush(now: engine.clock.now).isEmpty else { break }
        }
        records += try await engine.advanceClock(to: target)
        try planner.flush(now: engine.clock.now)
        return records
    }
}
