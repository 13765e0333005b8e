/// Why a command failed, and the exit status it maps to: 2 for a usage error, 1 when the
/// daemon refused, 3 when no daemon answers. The message is one line for the user.
public struct CLIError: Error, Equatable {
    public let status: Int32
    public let message: String

    public static func usage(_ message: String) -> CLIError { CLIError(status: 2, message: message) }
    public static func refused(_ message: String) -> CLIError { CLIError(status: 1, message: message) }
    public static func noDaemon(_ message: String) -> CLIError { CLIError(status: 3, message: message) }
}
