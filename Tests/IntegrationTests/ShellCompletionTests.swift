import DBus
import Foundation
import Testing
import TestSupport

/// The generated completion scripts, run by real bash, zsh and fish against the built CLI.
@Suite("shell completions", .timeLimit(.minutes(5)))
struct ShellCompletionTests {
    /// The environment of `f` with the built `liveactivity` first on PATH.
    func environment(_ f: DaemonFixture) -> [String: String] {
        var env = f.daemon.environment
        env["PATH"] = BuiltProducts.directory.path + ":/usr/bin:/bin"
        return env
    }

    /// Runs the bash completion function for each command line (cursor at its end) and
    /// returns the candidates bash would offer, one array per line.
    func bashCandidates(_ lines: [String], environment: [String: String]) throws -> [[String]] {
        let dir = try TemporaryDirectory()
        let script = dir.url.appendingPathComponent("try.bash")
        var text = "source <(liveactivity completions bash)\n"
        for line in lines {
            text += "COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _liveactivity; printf '%s|' \"${COMPREPLY[@]}\"; echo\n"
        }
        try text.write(to: script, atomically: true, encoding: .utf8)
        let result = try runCommand("/bin/bash", [script.path], environment: environment)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(lines.count).map {
            $0.split(separator: "|").map(String.init)
        }
    }

    @Test func bashCompletesCommandsOptionsKindsKeysValuesAndIDs() throws {
        let f = try DaemonFixture(recorderName: nil)
        #expect(try f.cli(["start", "focus", "--id", "deepwork"]).status == 0)
        #expect(try f.cli(["start", "generic", "title=x", "--id", "backup"]).status == 0)
        #expect(try f.cli(["start", "generic", "title=gone", "--id", "gone"]).status == 0)
        #expect(try f.cli(["end", "gone"]).status == 0)
        let got = try bashCandidates([
            "liveactivity st",
            "liveactivity start ",
            "liveactivity start fasting pro",
            "liveactivity start fasting protocol=1",
            "liveactivity end deepwork --reason c",
            "liveactivity watch --",
            "liveactivity pause ",
            "liveactivity update backup pro",
            "liveactivity enabled o",
        ], environment: environment(f))
        #expect(got[0] == ["start", "status", "stats"])
        #expect(got[1] == ["fasting", "focus", "generic"])
        #expect(got[2] == ["protocol="])
        #expect(got[3] == ["16:8", "18:6"], "bash already has protocol= and 1 before the word break")
        #expect(got[4] == ["completed", "cancelled"])
        #expect(got[5] == ["--format", "--help"])
        #expect(Set(got[6]) == ["deepwork", "backup"], "live ids asked of the daemon, not the ended one (issue 30)")
        #expect(got[7] == ["progress="], "state keys of the activity's kind; attributes are fixed")
        #expect(got[8] == ["on", "off"])
    }

    @Test func idsWithoutADaemonAreNoneAndNothingStartsIt() throws {
        let bus = try PrivateBus()
        var env = bus.environment()
        env["PATH"] = BuiltProducts.directory.path + ":/usr/bin:/bin"
        let got = try bashCandidates(["liveactivity pause ", "liveactivity s"], environment: env)
        #expect(got[0].isEmpty)
        #expect(got[1] == ["start", "scheduled", "status", "stats"])
        #expect(!bus.hasOwner(DaemonProcess.busName))
    }

    @Test func zshLoadsTheScriptAndOffersCommands() throws {
        let f = try DaemonFixture(recorderName: nil)
        // compadd is stubbed to print what it was given: the candidates zsh would show.
        let script = """
        autoload -U compinit; compinit -u -D
        source <(liveactivity completions zsh)
        print -r -- "registered:$_comps[liveactivity]"
        compadd() { print -rl -- "${@[$(( ${@[(i)--]} + 1 )),-1]}"; }
        words=(liveactivity st); CURRENT=2; PREFIX=st; _liveactivity
        words=(liveactivity start fasting pro); CURRENT=4; PREFIX=pro; _liveactivity
        """
        let result = try runCommand("/usr/bin/zsh", ["-f", "-c", script], environment: environment(f))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout == "registered:_liveactivity\nstart\nstatus\nstats\nprotocol=\n")
    }

    @Test func fishLoadsTheScriptAndOffersCommands() throws {
        let f = try DaemonFixture(recorderName: nil)
        var env = environment(f)
        env["XDG_CONFIG_HOME"] = f.daemon.home.subdirectory("fish-config").path
        let script = "liveactivity completions fish | source; complete -C 'liveactivity st'; complete -C 'liveactivity start fasting protocol='"
        let result = try runCommand("/usr/bin/fish", ["--no-config", "-c", script], environment: env)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let words = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(words == ["start", "stats", "status", "protocol=16:8", "protocol=18:6", "protocol=20:4", "protocol=OMAD"])
    }
}
