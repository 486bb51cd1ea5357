import APNsTestSupport
import Foundation
import ProcessTestSupport
import Testing

extension DaemonTests {
    /// libcurl and libpq are opened on first use: a daemon on its defaults maps neither (nor what they pull in), and
    /// one configured for APNs maps libcurl (its sender starts with the daemon) and still not libpq.
    @Suite("Libraries the daemon maps", .serialized)
    struct LibraryMappingTests {
        /// The file names of the shared objects the process has mapped.
        static func mappedLibraries(_ daemon: DaemonProcess) throws -> Set<String> {
            // Read to its end: /proc files report a size of 0, and a read sized by it stops at the first page.
            let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(daemon.process.processIdentifier)/maps"))
            defer { try? file.close() }
            let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
            return Set(maps.split(separator: "\n").compactMap { line in
                line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first
                    .map { String($0.split(separator: "/").last ?? $0) }
            }.filter { $0.contains(".so") })
        }

        @Test func aDaemonOnItsDefaultsMapsNeitherLibcurlNorLibpq() async throws {
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let daemon = try await DaemonProcess(["--data-dir", directory.appendingPathComponent("data").path],
                                                 logs: directory)
            #expect(try await daemon.request("GET", "/healthz").status == 200)
            let libraries = try Self.mappedLibraries(daemon)
            #expect(libraries.contains { $0.hasPrefix("libsqlite3.so") }, "\(libraries.sorted())")
            #expect(!libraries.contains { $0.hasPrefix("libcurl") || $0.hasPrefix("libpq") }, "\(libraries.sorted())")
            #expect(try await daemon.stop() == 0)
        }

        @Test func aDaemonSendingPushesMapsLibcurl() async throws {
            let apns = try LocalAPNs()
            let directory = try DaemonProcess.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let daemon = try await DaemonProcess(
                APNsDeliveryTests.arguments(apns, data: directory.appendingPathComponent("data")), logs: directory)
            let libraries = try Self.mappedLibraries(daemon)
            #expect(libraries.contains("libcurl.so.4.8.0") || libraries.contains { $0.hasPrefix("libcurl.so.4") },
                    "\(libraries.sorted())")
            #expect(!libraries.contains { $0.hasPrefix("libpq") }, "\(libraries.sorted())")
            #expect(try await daemon.stop() == 0)
        }
    }
}
