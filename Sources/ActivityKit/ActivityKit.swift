// ActivityKit: Apple's Live Activity model types, so activity attributes written for iOS compile
// unchanged on Linux. Like Apple's module, importing it brings in Foundation.
@_exported import Foundation
@_exported import HostBridge
