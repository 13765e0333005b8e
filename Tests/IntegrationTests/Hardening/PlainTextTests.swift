import DBus
import Foundation
import Testing
import TestSupport

/// Issue 18, point 7: client text is plain text wherever a host could read it otherwise.
/// On `main`, the tray item's `ToolTip` carried `<img src="file:///etc/passwd"/>` raw (the
/// StatusNotifierItem spec reads tooltip text as markup), and `liveactivity get` and `list`
/// wrote a title's ESC sequences to the terminal as they were.
@Suite("Plain text at the edges", .timeLimit(.minutes(5)))
struct PlainTextTests {
    static let markup = #"<img src="file:///etc/passwd"/> & <a href="https://example.com">x</a>"#

    @Test func theTrayToolTipEscapesClientMarkup() throws {
        let w = try TrayTests.World(watcherFirst: true)
        _ = try w.client.start("generic", state: ["title": .string(Self.markup), "body": .string("<b>bold</b>")])
        guard case .structure(let tip) = try w.item("ToolTip"), tip.count == 4 else { Issue.record("ToolTip is not (sa(iiay)ss)"); return }
        #expect(tip[2].string == #"&lt;img src="file:///etc/passwd"/&gt; &amp; &lt;a href="https://example.com"&gt;x&lt;/a&gt;"#)
        #expect(tip[3].string?.contains("&lt;b&gt;bold&lt;/b&gt;") == true, "\(tip[3])")
        #expect(tip[3].string?.contains("<") == false)
    }

    /// `get` and `list` run under script(1), so their standard output is a terminal.
    @Test func getAndListShowControlCharactersOnATerminal() throws {
        let f = try DaemonFixture(recorderName: nil)
        let id = try f.client.start("generic", state: ["title": .string("evil\u{1B}]0;owned\u{07}\u{1B}[2Jtitle")])
        let cli = BuiltProducts.path(of: "liveactivity")
        for arguments in ["get \(id)", "list"] {
            let run = try runCommand("/usr/bin/script", ["-qec", "\(cli) \(arguments)", "/dev/null"], environment: f.daemon.environment)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(!run.stdout.contains("\u{1B}"), "\(arguments) writes no ESC to a terminal: \(run.stdout.debugDescription)")
            #expect(run.stdout.contains(#"evil\u{1B}]0;owned\u{7}\u{1B}[2Jtitle"#), "\(run.stdout.debugDescription)")
        }
        let piped = try f.cli(["get", id, "--json"])
        #expect(piped.stdout.contains("\\u001b") || piped.stdout.contains("\\u001B"), "JSON escapes it: \(piped.stdout)")
    }
}
