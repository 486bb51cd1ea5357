// ActivityKit: Apple's Live Activity API (attributes, content, `Activity` with its requests, updates, ends and
// streams, authorization), so app code written for iOS (everything but SwiftUI views) compiles unchanged on Linux.
// Calls reach the engine bound to the current task (`HostContext.current`, an `ActivityHost`). Like Apple's module,
// importing it brings in Foundation; it also brings in HostBridge (the task-bound host, `UserDefaults`,
// `LocalizedStringResource`).
@_exported import Foundation
@_exported import HostBridge
