import Foundation

/// A subcommand's `--name value` options and positional arguments, parsed strictly: an unknown option is an error.
struct Options {
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    /// Parses `arguments`.
    /// - Parameters:
    ///   - valued: Options that take a value (`--data-dir DIR` or `--data-dir=DIR`).
    ///   - flags: Options that take none (`--json`).
    /// - Throws: A message naming the unknown option or the missing value.
    init(_ arguments: [String], valued: Set<String>, flags allowedFlags: Set<String>) throws(OptionError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positional.append(argument)
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            if valued.contains(name) {
                if let equals = body.firstIndex(of: "=") {
                    values[name] = String(body[body.index(after: equals)...])
                } else if index < arguments.count {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    throw OptionError(message: "option --\(name) needs a value")
                }
            } else if allowedFlags.contains(name), !body.contains("=") {
                flags.insert(name)
            } else {
                throw OptionError(message: "unknown option --\(name)")
            }
        }
    }

    /// The value of `--name`, if given.
    subscript(_ name: String) -> String? { values[name] }

    /// True when `--name` was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The data directory: `--data-dir`, else `$WIDGETHOST_DATA`, else `./data`.
    var dataDirectory: URL {
        let path = values["data-dir"] ?? ProcessInfo.processInfo.environment["WIDGETHOST_DATA"] ?? "data"
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}

/// A command line that does not parse.
struct OptionError: Error {
    let message: String
}
