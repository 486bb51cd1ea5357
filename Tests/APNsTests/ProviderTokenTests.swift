import APNs
import APNsTestSupport
import Foundation
import Testing

/// The provider token: ES256 as APNs verifies it, reused, and refreshed on schedule.
@Suite(.serialized)
struct ProviderTokenTests {
    @Test func theTokenIsReusedAndRefreshedAfterFiftyMinutesAsTheLocalAPNsSeesIt() throws {
        let apns = try LocalAPNs()
        let fixture = try SenderFixture(apns)
        try apns.setClock(fixture.clock.now)
        try fixture.sender.start()
        func send() throws {
            let push = SenderFixture.push(to: SenderFixture.token(1))
            try fixture.enqueue([push])
            #expect(try fixture.settled([push.apnsID])[push.apnsID]?.status == .delivered)
        }
        try send()
        fixture.clock.advance(49 * 60)
        try apns.setClock(fixture.clock.now)
        try send()
        #expect(try apns.providerTokens().count == 1)
        fixture.clock.advance(2 * 60)
        try apns.setClock(fixture.clock.now)
        try send()
        let tokens = try apns.providerTokens()
        #expect(tokens.count == 2)
        let iats = tokens.compactMap { $0["iat"] as? Int }
        #expect(iats.count == 2 && iats[1] - iats[0] == 51 * 60)
        // All three on one connection, with no TooManyProviderTokenUpdates.
        #expect(try apns.stats()["byStatus"] as? [String: Int] == ["200": 3])
    }

    @Test func aSignatureIsRawRAndSAndTheJWTCarriesKidIssAndIat() throws {
        let apns = try LocalAPNs()
        let key = try ProviderKey(keyID: LocalAPNs.keyID, path: apns.keyFile)
        let issued = Date(timeIntervalSince1970: 1_800_000_000.7)
        let token = try ProviderToken(key: key, teamID: LocalAPNs.teamID, now: { issued }).token()
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_800_000_000))
        let parts = token.jwt.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(decode(parts[0]) == Data(#"{"alg":"ES256","kid":"ABC123DEFG"}"#.utf8))
        #expect(decode(parts[1]) == Data(#"{"iss":"TEAM123456","iat":1800000000}"#.utf8))
        #expect(decode(parts[2])?.count == 64)
        #expect(!token.jwt.contains("=") && !token.jwt.contains("+") && !token.jwt.contains("/"))
    }

    @Test func renewingReplacesOnlyTheRejectedTokenAndMovesIatOn() throws {
        let apns = try LocalAPNs()
        let key = try ProviderKey(keyID: LocalAPNs.keyID, path: apns.keyFile)
        let source = try ProviderToken(key: key, teamID: LocalAPNs.teamID, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let first = try source.token()
        let renewed = try source.renew(rejected: first.jwt)
        #expect(renewed.jwt != first.jwt)
        #expect(renewed.issuedAt == first.issuedAt.addingTimeInterval(1))
        #expect(try source.renew(rejected: first.jwt) == renewed)  // a second stream refused with the old one
        #expect(try source.token() == renewed)
    }

    @Test(arguments: [19 * 60, 61 * 60, 0])
    func aRefreshIntervalOutsideTwentyToSixtyMinutesIsRefused(seconds: Int) throws {
        let apns = try LocalAPNs()
        let key = try ProviderKey(keyID: LocalAPNs.keyID, path: apns.keyFile)
        #expect(throws: ProviderTokenError.refreshIntervalOutOfRange(.seconds(seconds))) {
            try ProviderToken(key: key, teamID: LocalAPNs.teamID, refreshInterval: .seconds(seconds))
        }
        _ = try ProviderToken(key: key, teamID: LocalAPNs.teamID, refreshInterval: .seconds(20 * 60))
        _ = try ProviderToken(key: key, teamID: LocalAPNs.teamID, refreshInterval: .seconds(60 * 60))
        #expect(throws: ProviderTokenError.badTeamID("TEAM")) { try ProviderToken(key: key, teamID: "TEAM") }
    }

    @Test func keysThatAreNotP256PrivateKeysAreRefusedNamingTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rsa = directory.appendingPathComponent("rsa.p8").path
        let p384 = directory.appendingPathComponent("p384.p8").path
        try run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", rsa])
        try run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", p384])
        let garbage = directory.appendingPathComponent("garbage.p8").path
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: garbage))
        for (path, reason) in [(rsa, "is not an EC P-256 key"), (p384, "is not an EC P-256 key"),
                               (garbage, "is not a PEM private key"), (directory.path + "/missing.p8", "cannot be read")] {
            do {
                _ = try ProviderKey(keyID: LocalAPNs.keyID, path: path)
                Issue.record("\(path) was accepted")
            } catch let error as ProviderKeyError {
                #expect(error.path == path)
                #expect(error.reason.hasPrefix(reason), "\(error)")
            }
        }
        #expect(throws: ProviderKeyError.self) { try ProviderKey(keyID: "short", pem: Data()) }
    }

    private func decode(_ part: String) -> Data? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }

    private func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
