import Foundation
import LiveActivityCLI

/// Prints to fd 1 or 2 without touching the non-Sendable `stdout` global.
func writeLine(_ text: String, to fd: Int32) {
    var bytes = Array((text + "\n").utf8)
    bytes.withUnsafeMutableBytes { _ = write(fd, $0.baseAddress, $0.count) }
}

let environment = ProcessInfo.processInfo.environment
let tool = CommandLineTool(environment: environment, schema: KindFileSchema(environment: environment),
                           output: { writeLine($0, to: 1) })
switch tool.run(Array(CommandLine.arguments.dropFirst())) {
case .success:
    exit(0)
case .failure(let error):
    writeLine("liveactivity: \(error.message)", to: 2)
    exit(error.status)
}
