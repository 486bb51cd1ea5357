import Foundation
import Synchronization

/// The provider authentication token APNs wants in `authorization: bearer …`: an ES256 JWT (`{"alg":"ES256",
/// "kid":…}` / `{"iss":<team>,"iat":<seconds>}`) signed with the team's key, shared by every stream and connection.
///
/// Apple asks that a token be refreshed no more often than every 20 minutes and no less often than every 60, and
/// refuses one whose `iat` is more than an hour old; signing one per request gets `429 TooManyProviderTokenUpdates`.
/// So one token is signed, reused until it is ``refreshInterval`` old (50 minutes unless configured within 20–60),
/// and replaced early only when APNs answers `403 ExpiredProviderToken` for it (``renew(rejected:)``).
public final class ProviderToken: Sendable {
    /// One signed token and when it was issued.
    public struct Signed: Sendable, Hashable {
        /// The compact JWT.
        public var jwt: String
        /// Its `iat`.
        public var issuedAt: Date
    }

    /// The shortest and longest refresh intervals Apple allows.
    public static let allowedRefreshIntervals: ClosedRange<Duration> = .seconds(20 * 60) ... .seconds(60 * 60)

    /// The key tokens are signed with.
    public let key: ProviderKey
    /// The team id (`iss`).
    public let teamID: String
    /// How old a token may get before a new one is signed.
    public let refreshInterval: Duration
    private let now: @Sendable () -> Date
    private let current = Mutex<Signed?>(nil)

    /// Creates the token source; nothing is signed until ``token()`` is first asked.
    /// - Parameters:
    ///   - teamID: The 10-character team id.
    ///   - refreshInterval: Within ``allowedRefreshIntervals``.
    ///   - now: The clock `iat` is read from.
    /// - Throws: ``ProviderTokenError`` for a bad team id or an interval outside 20–60 minutes.
    public init(key: ProviderKey, teamID: String, refreshInterval: Duration = .seconds(50 * 60),
                now: @escaping @Sendable () -> Date = Date.init) throws {
        guard teamID.utf8.count == 10, teamID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ProviderTokenError.badTeamID(teamID)
        }
        guard Self.allowedRefreshIntervals.contains(refreshInterval) else {
            throw ProviderTokenError.refreshIntervalOutOfRange(refreshInterval)
        }
        self.key = key
        self.teamID = teamID
        self.refreshInterval = refreshInterval
        self.now = now
    }

    /// The token to send now: the current one, or a new one when it is ``refreshInterval`` old.
    /// - Throws: ``OpenSSLError`` when signing fails.
    public func token() throws -> Signed {
        let date = now()
        return try current.withLock { current throws -> Signed in
            if let signed = current, date.timeIntervalSince(signed.issuedAt) < refreshInterval.seconds {
                return signed
            }
            let signed = try sign(at: date, after: current)
            current = signed
            return signed
        }
    }

    /// Replaces `rejected` (the JWT APNs answered `ExpiredProviderToken` for) with a new token, unless that was
    /// done already: many streams refused at once renew it once.
    /// - Returns: The token to retry with.
    public func renew(rejected: String) throws -> Signed {
        let date = now()
        return try current.withLock { current throws -> Signed in
            if let signed = current, signed.jwt != rejected { return signed }
            let signed = try sign(at: date, after: current)
            current = signed
            return signed
        }
    }

    /// A new token; its `iat` is after the previous token's, so the two always differ.
    private func sign(at date: Date, after previous: Signed?) throws -> Signed {
        var seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        if let previous { seconds = max(seconds, Int64(previous.issuedAt.timeIntervalSince1970) + 1) }
        let header = #"{"alg":"ES256","kid":"\#(key.keyID)"}"#
        let claims = #"{"iss":"\#(teamID)","iat":\#(seconds)}"#
        let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
        let signature = try key.sign(Data(input.utf8))
        return Signed(jwt: input + "." + Base64URL.encode(signature),
                      issuedAt: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}

/// A provider token configuration APNs would refuse.
public enum ProviderTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The team id is not 10 letters or digits.
    case badTeamID(String)
    /// The refresh interval is outside 20–60 minutes.
    case refreshIntervalOutOfRange(Duration)

    public var description: String {
        switch self {
        case .badTeamID(let team): "the APNs team id '\(team)' is not 10 letters or digits"
        case .refreshIntervalOutOfRange(let interval):
            "the provider token refresh interval \(Int(interval.seconds)) s is outside 1200...3600 s (Apple: refresh "
                + "no more often than every 20 minutes, no less often than every 60)"
        }
    }
}

/// Base64url without padding (RFC 7515 §2), as JWTs carry their parts.
enum Base64URL {
    static func encode(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
