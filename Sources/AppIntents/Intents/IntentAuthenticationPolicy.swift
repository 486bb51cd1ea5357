/// Whether an intent may run while the device is locked.
///
/// Mirrors [IntentAuthenticationPolicy](https://developer.apple.com/documentation/appintents/intentauthenticationpolicy).
public enum IntentAuthenticationPolicy: Sendable, Hashable, Codable {
    /// The intent runs whether or not the device is locked.
    case alwaysAllowed
    /// The device must be unlocked.
    case requiresAuthentication
    /// The device must be unlocked on the device itself.
    case requiresLocalDeviceAuthentication
}
