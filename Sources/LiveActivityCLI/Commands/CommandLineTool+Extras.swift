import ActivityFiles
import ActivityModel
import DBus
import Foundation

/// The commands around the daemon calls: `doctor`, and the hidden ones that packaging and
/// shells use (`completions SHELL`, `man PAGE`, `__complete WORDS... CURRENT`).
extension CommandLineTool {
    /// The result of an extra command, or nil when `arguments` is an ordinary command.
    func runExtra(_ arguments: [String]) -> Result<Void, CLIError>? {
        guard let name = arguments.first else { return nil }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "completions":
            guard rest.count == 1, let script = CompletionScripts.script(for: rest[0]) else {
                return .failure(.usage("usage: liveactivity completions bash|zsh|fish"))
            }
            output(script)
        case "man":
            guard rest.count == 1, let page = ManPages.page(rest[0]) else {
                return .failure(.usage("usage: liveactivity man \(ManPages.names.joined(separator: "|"))"))
            }
            output(page)
        case "__complete":
            let candidates = completionCandidates().candidates(words: Array(rest.dropLast()), current: rest.last ?? "")
            if !candidates.isEmpty { output(candidates.joined(separator: "\n")) }
        case "doctor":
            guard let spec = CommandSpec.named("doctor") else { return nil }
            do {
                if try ParsedCommand(spec: spec, words: rest).wantsHelp { output(spec.help); return .success(()) }
            } catch {
                return .failure(error)
            }
            let findings = Doctor(environment: environment, paths: paths).run()
            output(findings.map(\.line).joined(separator: "\n"))
            if findings.contains(where: { $0.level == .broken }) {
                return .failure(CLIError(status: 1, message: "doctor: something is broken; see the fixes above"))
            }
        default:
            return nil
        }
        return .success(())
    }

    var paths: DaemonPaths {
        let executable = RunningExecutable.path
        return DaemonPaths.resolve(environment: environment, executable: executable)
    }

    /// Candidates from the kind files and, for ids, the daemon if it is already running
    /// (a second at most; completing never starts it).
    func completionCandidates() -> CompletionCandidates {
        let address = environment["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        let probes: DoctorProbes? = {
            guard let address, let connection = try? DBusConnection(address: address) else { return nil }
            let probes = DoctorProbes(connection: connection)
            return probes.hasOwner(BusClient.busName) ? probes : nil
        }()
        let manager = (BusClient.busName, BusClient.managerPath, BusClient.managerInterface)
        return CompletionCandidates(
            catalog: KindCatalog.load(directories: paths.kindDirectories),
            activityIDs: {
                guard case .array(_, let rows)? = (try? probes?.call(manager.0, manager.1, manager.2, "List"))??.first else { return [] }
                // Live and pending ones only: an ended activity takes no command but `get`.
                return rows.compactMap { row in
                    guard case .structure(let fields) = row, fields.count >= 3,
                          !["ended", "dismissed"].contains(fields[2].string ?? "") else { return nil }
                    return fields[0].string
                }
            },
            kindOfActivity: { id in
                (try? probes?.call(manager.0, manager.1, manager.2, "Get", [.string(id)]))??.first?.vardict?["kind"]?.string
            })
    }
}
