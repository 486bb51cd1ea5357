// iOS app code for a delivery tracker's Live Activity, written as it would be in an iOS app (minus the SwiftUI
// views of the widget extension) and compiled here unchanged in Swift 5 language mode.
import ActivityKit
import Foundation

struct FoodDeliveryAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var status: String
        var minutesAway: Int
        var arrival: Date
    }

    var orderNumber: String
    var restaurant: String
}

/// Where the tracker sends push tokens; the app's implementation posts them to its server.
protocol DeliveryServer: AnyObject {
    func register(updateToken: String, orderNumber: String)
    func register(pushToStartToken: String)
    func activityChanged(orderNumber: String, state: ActivityState)
}

@MainActor
final class DeliveryTracker {
    private(set) var current: Activity<FoodDeliveryAttributes>?
    private(set) var lastError: ActivityAuthorizationError?
    private(set) var lastShownStatus: String?
    private(set) var statusMessage: String?
    let server: DeliveryServer

    init(server: DeliveryServer) {
        self.server = server
    }

    var canStartActivities: Bool {
        ActivityAuthorizationInfo().areActivitiesEnabled
    }

    var mayUpdateOften: Bool {
        ActivityAuthorizationInfo().frequentPushesEnabled
    }

    // MARK: Starting

    @discardableResult
    func start(orderNumber: String, restaurant: String, minutesAway: Int) -> Bool {
        let attributes = FoodDeliveryAttributes(orderNumber: orderNumber, restaurant: restaurant)
        let state = FoodDeliveryAttributes.ContentState(
            status: "Preparing", minutesAway: minutesAway, arrival: Date().addingTimeInterval(Double(minutesAway) * 60))
        let content = ActivityContent(state: state, staleDate: Date().addingTimeInterval(15 * 60))
        do {
            let activity = try Activity<FoodDeliveryAttributes>.request(
                attributes: attributes, content: content, pushType: .token)
            current = activity
            observe(activity)
            return true
        } catch let error as ActivityAuthorizationError {
            lastError = error
            switch error {
            case .denied:
                statusMessage = "Live Activities are off for this app"
            case .targetMaximumExceeded, .globalMaximumExceeded:
                statusMessage = "Too many Live Activities"
            default:
                statusMessage = "Could not start the activity: \(error)"
            }
            return false
        } catch {
            statusMessage = "Could not start the activity: \(error)"
            return false
        }
    }

    func startBriefly(orderNumber: String, restaurant: String) throws {
        let attributes = FoodDeliveryAttributes(orderNumber: orderNumber, restaurant: restaurant)
        let state = FoodDeliveryAttributes.ContentState(status: "Ready for pickup", minutesAway: 0, arrival: Date())
        current = try Activity.request(attributes: attributes, content: .init(state: state, staleDate: nil),
                                       pushType: nil, style: .transient)
    }

    func schedule(orderNumber: String, restaurant: String, at start: Date) throws {
        let attributes = FoodDeliveryAttributes(orderNumber: orderNumber, restaurant: restaurant)
        let state = FoodDeliveryAttributes.ContentState(status: "Scheduled", minutesAway: 45,
                                                        arrival: start.addingTimeInterval(45 * 60))
        let alert = AlertConfiguration(title: "Your order is being prepared",
                                       body: "\(restaurant) has started on order \(orderNumber).", sound: .default)
        current = try Activity<FoodDeliveryAttributes>.request(
            attributes: attributes, content: ActivityContent(state: state, staleDate: nil), pushType: .token,
            alertConfiguration: alert, start: start)
    }

    // MARK: Updating and ending

    func courierPickedUp(minutesAway: Int) async {
        guard let activity = current else { return }
        let state = FoodDeliveryAttributes.ContentState(
            status: "Picked up", minutesAway: minutesAway, arrival: Date().addingTimeInterval(Double(minutesAway) * 60))
        await activity.update(ActivityContent(state: state, staleDate: Date().addingTimeInterval(10 * 60)))
    }

    func runningLate(minutesAway: Int) async {
        guard let activity = current else { return }
        let state = FoodDeliveryAttributes.ContentState(
            status: "Running late", minutesAway: minutesAway, arrival: Date().addingTimeInterval(Double(minutesAway) * 60))
        let alert = AlertConfiguration(title: "Delivery delayed", body: "Now \(minutesAway) minutes away.",
                                       sound: .default)
        await activity.update(ActivityContent(state: state, staleDate: nil, relevanceScore: 100),
                              alertConfiguration: alert)
    }

    func delivered() async {
        guard let activity = current else { return }
        let state = FoodDeliveryAttributes.ContentState(status: "Delivered", minutesAway: 0, arrival: Date())
        await activity.end(ActivityContent(state: state, staleDate: nil),
                           dismissalPolicy: .after(Date().addingTimeInterval(60 * 60)))
        current = nil
    }

    func cancelled() async {
        guard let activity = current else { return }
        let state = FoodDeliveryAttributes.ContentState(status: "Cancelled", minutesAway: 0, arrival: Date())
        await activity.end(.init(state: state, staleDate: nil), dismissalPolicy: .immediate)
        current = nil
    }

    func stopTracking() async {
        await current?.end(nil, dismissalPolicy: .default)
        current = nil
    }

    // MARK: Watching

    func observe(_ activity: Activity<FoodDeliveryAttributes>) {
        let orderNumber = activity.attributes.orderNumber
        let server = self.server
        Task {
            for await token in activity.pushTokenUpdates {
                let hex = token.map { String(format: "%02x", $0) }.joined()
                server.register(updateToken: hex, orderNumber: orderNumber)
            }
        }
        Task {
            for await state in activity.activityStateUpdates {
                server.activityChanged(orderNumber: orderNumber, state: state)
                if state == .dismissed || state == .ended {
                    break
                }
            }
        }
        Task {
            for await content in activity.contentUpdates {
                self.lastShownStatus = content.state.status
            }
        }
    }

    /// After a relaunch: picks up the activities still running, and those a push starts later.
    func resume() {
        for activity in Activity<FoodDeliveryAttributes>.activities {
            if activity.activityState == .active || activity.activityState == .stale {
                current = activity
                observe(activity)
            }
        }
        Task {
            for await activity in Activity<FoodDeliveryAttributes>.activityUpdates {
                self.current = activity
                self.observe(activity)
            }
        }
    }

    func registerForPushToStart() {
        let server = self.server
        if let token = Activity<FoodDeliveryAttributes>.pushToStartToken {
            server.register(pushToStartToken: token.map { String(format: "%02x", $0) }.joined())
        }
        Task {
            for await token in Activity<FoodDeliveryAttributes>.pushToStartTokenUpdates {
                server.register(pushToStartToken: token.map { String(format: "%02x", $0) }.joined())
            }
        }
    }

    func watchAuthorization(onChange: @escaping (Bool) -> Void) {
        Task {
            for await enabled in ActivityAuthorizationInfo().activityEnablementUpdates {
                onChange(enabled)
            }
        }
    }
}
