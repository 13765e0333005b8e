import Foundation
import LiveActivityCLI

/// Prints to fd 1 or 2 without touching the non-Sendable `stdout` global; false when the
/// reader has gone away (EPIPE), so `watch` can stop quietly. On a terminal, control
/// characters of client text are shown, not obeyed (`TerminalText`).
@discardableResult
func writeLine(_ text: String, to fd: Int32) -> Bool {
    let shown = isatty(fd) == 1 ? TerminalText.neutralised(text) : text
    var bytes = Array((shown + "\n").utf8)
    let count = bytes.count
    return bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, count) } == count
}

signal(SIGPIPE, SIG_IGN)

let environment = ProcessInfo.processInfo.environment
let tool = CommandLineTool(environment: environment, schema: KindFileSchema(environment: environment),
                           output: { writeLine($0, to: 1) },
                           warning: { writeLine("liveactivity: \($0)", to: 2) }, writeLine: { writeLine($0, to: 1) }, outputDescriptor: 1)
switch tool.run(Array(CommandLine.arguments.dropFirst())) {
case .success:
    exit(0)
case .failure(let error):
    writeLine("liveactivity: \(error.message)", to: 2)
    exit(error.status)
}
