import Foundation
import Testing
import TestSupport

/// The generated man pages render with man-db and groff without a single warning.
@Suite("man pages", .timeLimit(.minutes(5)))
struct ManPageTests {
    @Test(arguments: [("liveactivity", "1"), ("liveactivityd", "8"), ("liveactivityd.conf", "5")])
    func rendersWithoutWarnings(page: String, section: String) throws {
        let generated = try runCommand(BuiltProducts.path(of: "liveactivity"), ["man", page], environment: [:])
        #expect(generated.status == 0)
        let dir = try TemporaryDirectory()
        let file = dir.url.appendingPathComponent("\(page).\(section)")
        try generated.stdout.write(to: file, atomically: true, encoding: .utf8)
        let env = ["PATH": "/usr/bin:/bin", "MANWIDTH": "80", "LANG": "C.UTF-8", "HOME": dir.path]
        let rendered = try runCommand("/usr/bin/man", ["--warnings", "-l", file.path], environment: env)
        #expect(rendered.status == 0)
        #expect(rendered.stderr == "", "man --warnings: \(rendered.stderr)")
        #expect(rendered.stdout.contains("\(page.uppercased())(\(section))"))
        #expect(rendered.stdout.contains("NAME") && rendered.stdout.contains("SEE ALSO"))
    }

    @Test func theCommandPageListsEveryCommandAndTheTimeForms() throws {
        let page = try runCommand(BuiltProducts.path(of: "liveactivity"), ["man", "liveactivity"], environment: [:]).stdout
        let help = try runCommand(BuiltProducts.path(of: "liveactivity"), ["--help"], environment: [:]).stdout
        let commands = help.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "Commands:" }.dropFirst()
            .prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.count >= 16)
        #expect(commands.contains("push-to-start-token"), "every name whole in --help")
        for command in commands {
            let roff = command.replacingOccurrences(of: "-", with: "\\-")
            #expect(page.contains(".SS liveactivity \(roff)"), "\(command)")
        }
        #expect(page.contains("yesterday 20:00") || page.contains("today/yesterday/tomorrow HH:MM"))
    }

    @Test func theConfigPageListsEveryKey() throws {
        let page = try runCommand(BuiltProducts.path(of: "liveactivity"), ["man", "liveactivityd.conf"], environment: [:]).stdout
        for key in ["cards", "tray", "kde\\-jobs", "min\\-notify\\-interval", "max\\-live\\-activities", "max\\-payload\\-bytes",
                    "dismiss\\-after"] {
            #expect(page.contains("\\fB\(key)\\fR"), "\(key)")
        }
    }
}
