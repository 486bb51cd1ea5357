extension WidgetCenter {
    /// Keys of the `userInfo` an app receives when a widget without a URL is tapped.
    ///
    /// Mirrors [WidgetCenter.UserInfoKey](https://developer.apple.com/documentation/widgetkit/widgetcenter/userinfokey).
    public struct UserInfoKey: Sendable {
        /// The tapped widget's kind.
        public static let kind = "WGWidgetUserInfoKeyKind"
        /// The tapped widget's family.
        public static let family = "WGWidgetUserInfoKeyFamily"
        /// The Live Activity's identifier, for taps on a Live Activity.
        public static let activityID = "WGWidgetUserInfoKeyActivityID"
    }
}
