import Foundation
#if canImport(HostBridge)
import HostBridge
#endif

/// The device's clock, in a file added to both the iOS target and the WidgetHost one: under WidgetHost it is the
/// engine's clock (virtual in tests, so a test can move the device to tomorrow), on iOS the real one.
enum DeviceClock {
    /// Now.
    static var now: Date {
        #if canImport(HostBridge)
        HostContext.now
        #else
        Date()
        #endif
    }

    /// The device's calendar (its time zone: the engine's under WidgetHost).
    static var calendar: Calendar {
        #if canImport(HostBridge)
        HostContext.calendar
        #else
        Calendar.current
        #endif
    }
}
