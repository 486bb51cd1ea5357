import DemoWidgets
import Foundation
import HTTPServer
import SharedState
import Testing
import WidgetHost
import WidgetHostServer

extension DaemonTests {
    @Suite("ReloadScheduler")
    struct ReloadSchedulerTests {
        /// An engine on a virtual clock the test moves behind the engine's back, as the wall clock moves.
        private func makeEngine(_ clock: VirtualClock) throws -> WidgetEngine {
            let container = try AppGroupContainer.inMemory(identifier: DemoSchema.appGroup)
            try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
            return WidgetEngine(catalog: DemoCatalog.make(), store: try EngineStore.inMemory(), clock: clock,
                                timeZone: InProcessDaemon.timeZone, containers: [container])
        }

        @Test("runs a reload once its time has come, woken by a schedule change")
        func runsDueReloads() async throws {
            let clock = VirtualClock(start: InProcessDaemon.start)
            let engine = try makeEngine(clock)
            try await engine.place(kind: "Daily", family: .systemSmall, id: "d")
            let scheduler = ReloadScheduler(engine: engine, log: ServerLog(level: .error, sink: { _ in }))
            scheduler.start()

            // Past the next local midnight: the reload is due; the scheduler notices on its next look.
            clock.set(to: InProcessDaemon.start.addingTimeInterval(15 * 3600))
            scheduler.scheduleChanged()
            var runs = 0
            for _ in 0..<200 {
                runs = try await engine.state(ofInstance: "d").providerRuns
                if runs == 2 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(runs == 2)
            let next = try await engine.state(ofInstance: "d").nextReload?.dueAt
            #expect(next == Date(timeIntervalSince1970: 1_772_492_400))  // 2026-03-02T23:00:00Z, the next midnight
            await scheduler.stop()
        }

        @Test("stop wakes the sleeping loop and waits for it to end; a stopped scheduler does not start again")
        func stops() async throws {
            let clock = VirtualClock(start: InProcessDaemon.start)
            let engine = try makeEngine(clock)
            try await engine.place(kind: "Daily", family: .systemSmall, id: "d")
            let scheduler = ReloadScheduler(engine: engine, log: ServerLog(level: .error, sink: { _ in }))
            #expect(!scheduler.isRunning)
            scheduler.start()
            #expect(scheduler.isRunning)
            // Its first pass finds the next reload hours ahead, so it goes to sleep for the longest it may (60 s).
            let firstPass = ContinuousClock.now.advanced(by: .seconds(20))
            while scheduler.completedPasses == 0, ContinuousClock.now < firstPass {
                await Task.yield()
            }
            #expect(scheduler.completedPasses == 1)

            // Stop must not wait out that sleep: it races a timer well under it.
            let stoppedInTime = await withTaskGroup(of: Bool.self) { group in
                group.addTask { await scheduler.stop(); return true }
                group.addTask { try? await Task.sleep(for: .seconds(20)); return false }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            #expect(stoppedInTime)
            #expect(!scheduler.isRunning)
            #expect(scheduler.completedPasses == 1)

            scheduler.start()
            #expect(!scheduler.isRunning)
            // The reload made due after the stop is left to whoever runs the engine next: here, the test.
            clock.set(to: InProcessDaemon.start.addingTimeInterval(15 * 3600))
            scheduler.scheduleChanged()
            #expect(try await engine.runDueReloads().count == 1)
            #expect(scheduler.completedPasses == 1)
        }
    }
}
