import AppIntents
import Testing
import WidgetKit

@Suite("WidgetCenter forwarding")
struct WidgetCenterTests {
    @Test("calls reach the host bound to the task")
    func forwardsToBoundHost() async throws {
        let host = TestHost()
        HostContext.withBinding(host) {
            WidgetCenter.shared.reloadTimelines(ofKind: "TaskList")
            WidgetCenter.shared.reloadAllTimelines()
        }
        #expect(host.reloadedKinds == ["TaskList"])
        #expect(host.reloadAllCount == 1)
    }

    @Test("an interactive intent's reload reaches the host running it")
    func intentReload() async throws {
        let host = TestHost(appGroups: ["group.com.example.tasks"])
        _ = try await HostContext.withBinding(host) {
            try await CompleteTaskIntent(taskID: "t1").perform()
        }
        #expect(host.reloadedKinds == ["TaskList"])
    }

    @Test("two concurrent tasks with different hosts do not see each other's calls")
    func concurrentBindingsAreIsolated() async throws {
        let first = TestHost()
        let second = TestHost()
        async let a: Void = HostContext.withBinding(first) {
            for index in 0..<50 {
                WidgetCenter.shared.reloadTimelines(ofKind: "first-\(index)")
                await Task.yield()
            }
        }
        async let b: Void = HostContext.withBinding(second) {
            for index in 0..<50 {
                WidgetCenter.shared.reloadTimelines(ofKind: "second-\(index)")
                await Task.yield()
            }
        }
        _ = await (a, b)
        #expect(first.reloadedKinds == (0..<50).map { "first-\($0)" })
        #expect(second.reloadedKinds == (0..<50).map { "second-\($0)" })
    }

    @Test("with no host, reloads do nothing and configurations are empty")
    func unbound() async throws {
        let host = TestHost()
        WidgetCenter.shared.reloadTimelines(ofKind: "TaskList")
        #expect(try await WidgetCenter.shared.currentConfigurations().isEmpty)
        HostContext.withBinding(BareHost()) {
            WidgetCenter.shared.reloadAllTimelines()
        }
        #expect(host.reloadedKinds.isEmpty)
    }

    @Test("configurations come from the host; widgetConfigurationIntent(of:) checks the type")
    func configurations() async throws {
        let intent = SelectProjectIntent()
        intent.showCompleted = false
        let host = TestHost(widgets: [
            WidgetInfo(kind: "Project", family: .systemMedium, id: "w1", configurationIntent: intent),
            WidgetInfo(kind: "Quote", family: .systemSmall, id: "w2", configurationIntent: nil),
        ])
        let widgets = try await HostContext.withBinding(host) {
            try await WidgetCenter.shared.currentConfigurations()
        }
        #expect(widgets.map(\.kind) == ["Project", "Quote"])
        #expect(widgets[0].family == .systemMedium)
        #expect(widgets[0].widgetConfigurationIntent(of: SelectProjectIntent.self)?.showCompleted == false)
        #expect(widgets[0].widgetConfigurationIntent(of: FilterTasksIntent.self) == nil)
        #expect(widgets[1].widgetConfigurationIntent(of: SelectProjectIntent.self) == nil)

        let fromCompletion = await withCheckedContinuation { continuation in
            HostContext.withBinding(host) {
                WidgetCenter.shared.getCurrentConfigurations { result in
                    continuation.resume(returning: (try? result.get())?.map(\.id) ?? [])
                }
            }
        }
        #expect(fromCompletion == ["w1", "w2"])
    }

    @Test("donations reach the host")
    func donations() async throws {
        let host = TestHost(appGroups: ["group.com.example.tasks"])
        let result = try await HostContext.withBinding(host) {
            try await CountCompletedIntent().perform()
        }
        #expect(host.donations.count == 1)
        #expect(host.donations.first?.intent is CountCompletedIntent)
        #expect(result.returnedValue as? Int == 0)
    }

    @Test("UserInfoKey names")
    func userInfoKeys() {
        #expect(WidgetCenter.UserInfoKey.kind != WidgetCenter.UserInfoKey.family)
        #expect(WidgetCenter.UserInfoKey.activityID.hasPrefix("WGWidgetUserInfoKey"))
    }
}
