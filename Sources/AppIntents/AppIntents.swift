// AppIntents: Apple's App Intents model types (intents, parameters, entities, queries, results),
// so intent code written for iOS compiles unchanged on Linux. Like Apple's module, importing it
// brings in Foundation; it also brings in HostBridge (the task-bound host and `UserDefaults`).
@_exported import Foundation
@_exported import HostBridge
