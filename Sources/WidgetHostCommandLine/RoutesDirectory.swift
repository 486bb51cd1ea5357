import Foundation

/// Where `--routes` points when it is not given.
package enum RoutesDirectory {
    /// `./Routes` when the current directory has one, else the repository's `Routes/`, found from
    /// this source file's location.
    package static func defaultPath() -> String {
        let local = FileManager.default.currentDirectoryPath + "/Routes"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory), isDirectory.boolValue { return local }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Routes").path
    }
}
