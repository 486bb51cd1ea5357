import AppIntents
import Foundation
import WidgetKit

/// A host for tests: in-memory App Group suites, and a record of WidgetCenter calls and donations.
final class TestHost: WidgetCenterHost, IntentDonationHost, @unchecked Sendable {
    // @unchecked Sendable: the mutable arrays are only touched while holding `lock`; `suites` is an
    // immutable dictionary of Sendable storages.
    private let lock = NSLock()
    private var _reloadedKinds: [String] = []
    private var _reloadAllCount = 0
    private var _donations: [IntentDonation] = []
    private let suites: [String: InMemoryDefaultsStorage]
    let widgets: [WidgetInfo]

    init(appGroups: [String] = [], widgets: [WidgetInfo] = []) {
        var suites: [String: InMemoryDefaultsStorage] = [:]
        for group in appGroups {
            suites[group] = InMemoryDefaultsStorage()
        }
        self.suites = suites
        self.widgets = widgets
    }

    func storage(_ group: String) -> InMemoryDefaultsStorage? { suites[group] }

    var reloadedKinds: [String] { lock.withLock { _reloadedKinds } }
    var reloadAllCount: Int { lock.withLock { _reloadAllCount } }
    var donations: [IntentDonation] { lock.withLock { _donations } }

    func defaults(suiteName: String) -> (any DefaultsStorage)? { suites[suiteName] }

    func reloadTimelines(ofKind kind: String) {
        lock.withLock { _reloadedKinds.append(kind) }
    }

    func reloadAllTimelines() {
        lock.withLock { _reloadAllCount += 1 }
    }

    func currentConfigurations() async throws -> [WidgetInfo] { widgets }

    func recordDonation(_ donation: IntentDonation) {
        lock.withLock { _donations.append(donation) }
    }
}

/// A host that manages no App Group and serves nothing else.
struct BareHost: HostBinding {}
