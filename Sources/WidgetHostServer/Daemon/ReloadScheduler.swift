import Foundation
import HTTPServer
import Push
import Synchronization
import WidgetHost

/// Runs the engine's due reloads, and settles its Live Activities, when they come due on the wall clock.
///
/// The loop runs what is due (``WidgetEngine/runDueReloads()``, then ``LiveActivities/settle()``: an activity's
/// 8-hour end, its stale date, its dismissal, a token rotation), reads the next due date from the schedule index
/// and ``LiveActivities/nextTransitionDate()``, and sleeps until the earlier, but never longer than ``maximumSleep``
/// and never past a ``scheduleChanged()`` signal (an instance placed, a reload deferred, an activity changed). With a
/// push planner attached (``attach(_:)``), it also flushes the planner's held states and time-limit ends at
/// ``PushPlanner/nextFlushDate()``. On a virtual clock the daemon runs no scheduler: reloads run (and the planner
/// flushes) when the clock is set or advanced through the API.
public final class ReloadScheduler: Sendable {
    /// The longest the scheduler sleeps without looking again, in case the wall clock jumped.
    public static let maximumSleep: Duration = .seconds(60)
    /// The shortest pause between two passes, so a reload that stays due cannot spin the loop.
    static let minimumPause: Duration = .milliseconds(50)

    private let engine: WidgetEngine
    private let log: ServerLog
    private let wakeup = Wakeup()
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let stopped = Mutex(false)
    private let passes = Mutex(0)
    private let loopEnded = Mutex(false)
    private let planner = Mutex<PushPlanner?>(nil)

    /// Creates a scheduler for `engine`; ``start()`` starts it.
    public init(engine: WidgetEngine, log: ServerLog) {
        self.engine = engine
        self.log = log
    }

    /// Starts the loop. Calling it again does nothing.
    public func start() {
        task.withLock { task in
            guard task == nil, !stopped.withLock({ $0 }) else { return }
            task = Task { [self] in await run() }
        }
    }

    /// Whether the loop was started and has not ended yet; false once ``stop()`` has returned.
    public var isRunning: Bool {
        task.withLock { $0 != nil } && !loopEnded.withLock { $0 }
    }

    /// How many passes (run what is due, then look for the next due date) the loop has finished.
    public var completedPasses: Int {
        passes.withLock { $0 }
    }

    /// Flushes `planner` when its held states come due, from the next pass on.
    public func attach(_ planner: PushPlanner) {
        self.planner.withLock { $0 = planner }
        wakeup.signal()
    }

    /// Tells the scheduler the schedule may have changed, so it looks again now.
    public func scheduleChanged() {
        wakeup.signal()
    }

    /// Stops the loop after the pass in progress, if any, and waits for it.
    public func stop() async {
        stopped.withLock { $0 = true }
        let running = task.withLock { $0 }
        running?.cancel()
        wakeup.signal()
        await running?.value
    }

    private func run() async {
        defer { loopEnded.withLock { $0 = true } }
        while !stopped.withLock({ $0 }) {
            var pause = Self.maximumSleep
            do {
                let records = try await engine.runDueReloads()
                if !records.isEmpty {
                    log.log(.debug, "scheduled reloads ran", ["count": .int(records.count)])
                }
                // Settled here and not only when something reads an activity, so a client watching the activity's
                // stream (or the metrics) sees it end or go stale on time.
                try engine.activities.settle()
                let planner = self.planner.withLock { $0 }
                let flushed = try planner?.flush(now: engine.clock.now) ?? []
                if !flushed.isEmpty {
                    log.log(.debug, "planner flushed", ["count": .int(flushed.count)])
                }
                let nextReload = try await engine.upcomingReloads(through: .distantFuture, limit: 1).first?.reload.dueAt
                let nextTransition = try engine.activities.nextTransitionDate()
                let nextFlush = try planner?.nextFlushDate()
                if let next = [nextReload, nextTransition, nextFlush].compactMap({ $0 }).min() {
                    let seconds = next.timeIntervalSince(engine.clock.now)
                    let limit = Double(Self.maximumSleep.components.seconds)
                    pause = .milliseconds(Int64(min(max(seconds, 0), limit) * 1000))
                }
            } catch {
                log.log(.error, "scheduled reloads failed", ["error": .string(String(describing: error))])
            }
            passes.withLock { $0 += 1 }
            await wakeup.wait(timeout: max(pause, Self.minimumPause))
        }
    }
}
