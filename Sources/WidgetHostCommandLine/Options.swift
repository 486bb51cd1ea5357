import Foundation
import JSON

/// A subcommand's `--name value` options and positional arguments, parsed strictly: an unknown option is an error.
package struct Options {
    package private(set) var values: [String: String] = [:]
    package private(set) var flags: Set<String> = []
    package private(set) var positional: [String] = []

    /// Parses `arguments`.
    /// - Parameters:
    ///   - valued: Options that take a value (`--data-dir DIR` or `--data-dir=DIR`).
    ///   - flags: Options that take none (`--json`).
    /// - Throws: A message naming the unknown option or the missing value.
    package init(_ arguments: [String], valued: Set<String>, flags allowedFlags: Set<String>) throws(OptionError) {
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
    package subscript(_ name: String) -> String? { values[name] }

    /// True when `--name` was given.
    package func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The data directory: `--data-dir`, else `$WIDGETHOST_DATA`, else `./data`.
    package var dataDirectory: URL {
        let path = values["data-dir"] ?? ProcessInfo.processInfo.environment["WIDGETHOST_DATA"] ?? "data"
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}

extension Options {
    /// The instant of option `--name`'s `text` (``DateTimeFormat/instant``: `2026-11-25T10:00:00Z`, with or without
    /// a fraction, `Z` or an offset).
    /// - Throws: ``OptionError`` naming the option, the text and what is wrong with it.
    package static func date(_ text: String, option name: String) throws(OptionError) -> Date {
        do {
            return try DateTimeText.date(from: text, format: .instant)
        } catch {
            throw OptionError(message: "--\(name) needs a date-time such as 2026-11-25T10:00:00Z, got '\(text)': \(error)")
        }
    }
}

/// A command line that does not parse.
package struct OptionError: Error {
    package let message: String

    package init(message: String) { self.message = message }
}

extension OptionError: CustomStringConvertible {
    package var description: String { message }
}
