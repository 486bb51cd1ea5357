import Foundation
import HostBridge
import Testing

/// With no engine bound, the iOS-shaped entry points answer as iOS does for an app without the group: no container,
/// and the machine's clock.
@Suite("Unbound host")
struct UnboundHostTests {
    /// A host that knows one group and runs on a fixed clock in Tokyo.
    struct FixedHost: HostBinding {
        let directory: URL
        func containerURL(forGroup groupIdentifier: String) -> URL? {
            groupIdentifier == "group.known" ? directory : nil
        }
        var now: Date? { Date(timeIntervalSince1970: 1_000_000) }
        var timeZone: TimeZone? { TimeZone(identifier: "Asia/Tokyo") }
    }

    @Test("containerURL is nil unbound and for an unknown group, the host's directory for its own")
    func containerURL() {
        #expect(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.known") == nil)
        let directory = URL(fileURLWithPath: "/tmp/known", isDirectory: true)
        HostContext.withBinding(FixedHost(directory: directory)) {
            #expect(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.known") == directory)
            #expect(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.other") == nil)
        }
    }

    @Test("HostContext.now and calendar follow the bound host, else the machine")
    func clock() {
        let before = Date()
        #expect(HostContext.now >= before)
        #expect(HostContext.calendar.timeZone == Calendar.current.timeZone)
        HostContext.withBinding(FixedHost(directory: URL(fileURLWithPath: "/tmp"))) {
            #expect(HostContext.now == Date(timeIntervalSince1970: 1_000_000))
            #expect(HostContext.calendar.timeZone.identifier == "Asia/Tokyo")
        }
    }
}
