// WidgetKit: Apple's WidgetKit model types (timelines, providers, families, WidgetCenter, controls'
// value providers and ControlCenter, the widget push handler), so
// widget code written for iOS (everything but SwiftUI views) compiles unchanged on Linux. Like
// Apple's module, importing it brings in Foundation and AppIntents' types used in widget code.
@_exported import AppIntents
@_exported import Foundation
@_exported import HostBridge
