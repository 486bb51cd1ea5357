import AppIntents
import Foundation
import WidgetKit

/// A host for control tests: one in-memory App Group suite, a record of ControlCenter calls, fixed placed controls.
final class TestControlHost: ControlCenterHost, @unchecked Sendable {
    // @unchecked Sendable: the mutable arrays are only touched while holding `lock`; the rest is immutable.
    private let lock = NSLock()
    private var _reloadedKinds: [String] = []
    private var _reloadAllCount = 0
    let suite = InMemoryDefaultsStorage()
    let group: String
    let controls: [ControlInfo]

    init(group: String = "group.com.example.focus", controls: [ControlInfo] = []) {
        self.group = group
        self.controls = controls
    }

    var reloadedKinds: [String] { lock.withLock { _reloadedKinds } }
    var reloadAllCount: Int { lock.withLock { _reloadAllCount } }

    func defaults(suiteName: String) -> (any DefaultsStorage)? { suiteName == group ? suite : nil }

    func reloadControls(ofKind kind: String) {
        lock.withLock { _reloadedKinds.append(kind) }
    }

    func reloadAllControls() {
        lock.withLock { _reloadAllCount += 1 }
    }

    func currentControls() async throws -> [ControlInfo] { controls }
}
