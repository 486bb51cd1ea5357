import APNs
import Foundation
import WidgetHostServer

/// `widgethost serve`'s `--apns-*` options: where the outbox's pushes go. Without them nothing is sent.
struct APNsOptions {
    static let valuedOptions: Set<String> = [
        "apns-endpoint", "apns-key-file", "apns-key-id", "apns-team-id", "apns-topic", "apns-ca-file", "apns-connections",
    ]
    static let required = ["apns-endpoint", "apns-key-file", "apns-key-id", "apns-team-id", "apns-topic"]

    static let usage = """
          --apns-endpoint URL   send the outbox's pushes to APNs: https://api.push.apple.com,
                                https://api.sandbox.push.apple.com, or a local stand-in (Tests/apns/local-apns);
                                needs the four options below
          --apns-key-file P8    the team's signing key (.p8, PKCS#8 EC P-256)
          --apns-key-id KID     its 10-character key id
          --apns-team-id TEAM   the 10-character team id
          --apns-topic BUNDLE   the app's bundle id (pushes are addressed to it, with the push type's suffix)
          --apns-ca-file PEM    certificate authorities to trust instead of the system's (a stand-in's ca.pem)
          --apns-connections N  HTTP/2 connections, 1-16 (default 1; each carries up to 500 streams)
    """

    var endpoint: URL
    var keyFile: String
    var keyID: String
    var teamID: String
    var topic: String
    var caFile: String?
    var connections: Int

    /// The options given, checked; nil when none of them is.
    /// - Throws: ``OptionError`` naming what is missing or wrong.
    static func parse(_ options: Options) throws(OptionError) -> APNsOptions? {
        let given = valuedOptions.filter { options[$0] != nil }
        guard !given.isEmpty else { return nil }
        let missing = required.filter { options[$0] == nil }
        guard missing.isEmpty else {
            throw OptionError(message: "sending to APNs needs " + missing.map { "--\($0)" }.joined(separator: ", "))
        }
        guard let endpoint = URL(string: options["apns-endpoint"]!),
              ["https", "http"].contains(endpoint.scheme?.lowercased() ?? ""), endpoint.host != nil else {
            throw OptionError(message: "--apns-endpoint needs an https:// URL (scheme, host, port)")
        }
        var connections = 1
        if let text = options["apns-connections"] {
            guard let count = Int(text), (1...16).contains(count) else {
                throw OptionError(message: "--apns-connections needs a number 1-16")
            }
            connections = count
        }
        return APNsOptions(endpoint: endpoint, keyFile: options["apns-key-file"]!, keyID: options["apns-key-id"]!,
                           teamID: options["apns-team-id"]!, topic: options["apns-topic"]!,
                           caFile: options["apns-ca-file"], connections: connections)
    }

    /// Loads the key and makes the daemon's APNs settings.
    /// - Throws: ``OptionError`` for a key that cannot be loaded, a bad id, or a bad endpoint or CA file.
    func settings() throws(OptionError) -> WidgetHostDaemon.APNsSettings {
        do {
            let key = try ProviderKey(keyID: keyID, path: keyFile)
            let token = try ProviderToken(key: key, teamID: teamID)
            let client = HTTP2Client.Configuration(endpoint: endpoint, caFile: caFile, connections: connections)
            return WidgetHostDaemon.APNsSettings(providerToken: token, sender: APNsSender.Configuration(client: client),
                                                 topic: topic)
        } catch {
            throw OptionError(message: "--apns: \(error)")
        }
    }
}
