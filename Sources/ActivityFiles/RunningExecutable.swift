#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The path of the running program, looked up in one place: `/proc/self/exe` (the link the
/// kernel keeps, right however the program was started), else the name it was started by.
/// The daemon and the CLI find their installed files next to it (`DaemonPaths`), the test
/// harness the built products.
public enum RunningExecutable {
    public static let path: String =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? (CommandLine.arguments.first ?? "")
}
