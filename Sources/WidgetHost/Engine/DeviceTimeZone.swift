import Foundation
import Synchronization

/// The engine's time zone: the one it was given, or the system's, looked up on first use.
final class DeviceTimeZone: Sendable {
    private let resolved: Mutex<TimeZone?>

    /// - Parameter zone: The zone, or nil for `TimeZone.current` when first asked.
    init(_ zone: TimeZone?) {
        resolved = Mutex(zone)
    }

    var zone: TimeZone {
        resolved.withLock { resolved in
            if let zone = resolved { return zone }
            let zone = TimeZone.current
            resolved = zone
            return zone
        }
    }
}
