import Foundation

/// How this build holds the Swift runtime and Foundation: linked into the executable, as `make release` builds the
/// daemon to deploy and `make bench-build` builds the benchmarks, or loaded from the toolchain's shared libraries, as
/// a plain `swift build` links them. The runner's own code calls the runtime (reference counting, task switches)
/// tens of times a perform: from the shared libraries each call goes through the procedure linkage table, and each
/// task-local read through `__tls_get_addr`, so the two builds' figures differ (`Benchmarks/HISTORY.md`).
enum SwiftRuntimeLinking {
    /// "linked in", or "from <path>": the file mapped where `Int`'s type metadata lies (`/proc/self/maps`).
    static var description: String {
        let address = UInt(bitPattern: unsafeBitCast(Int.self as Any.Type, to: UnsafeRawPointer.self))
        // Read to its end: `String(contentsOfFile:)` stops after the first read of a file whose size reads as 0.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/maps"), let maps = try? file.readToEnd() else {
            return "unknown"
        }
        for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
            // start-end perms offset device inode path
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let bounds = fields.first?.split(separator: "-") ?? []
            guard fields.count >= 6, bounds.count == 2, let start = UInt(bounds[0], radix: 16),
                  let end = UInt(bounds[1], radix: 16), start <= address, address < end else { continue }
            let path = fields[5...].joined(separator: " ")
            return path.contains("libswiftCore") ? "from \(path)" : "linked in"
        }
        return "unknown"
    }
}
