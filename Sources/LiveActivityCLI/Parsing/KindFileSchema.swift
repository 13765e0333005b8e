import ActivityFiles
import ActivityModel
import Foundation

/// The kinds as the daemon reads them (the same directories), so `key=value` arguments go
/// to attributes or state and get the type the kind declares.
public struct KindFileSchema: KeySchema {
    let catalog: KindCatalog

    public init(environment: [String: String]) {
        let executable = RunningExecutable.path
        let paths = DaemonPaths.resolve(environment: environment, executable: executable)
        catalog = KindCatalog.load(directories: paths.kindDirectories)
    }

    public func lookup(kind: String, key: String) -> (KeyDestination, ArgumentType)? {
        guard let declared = catalog.kind(named: kind) else { return nil }
        if let spec = declared.attributes[key] { return (.attributes, Self.argumentType(spec.type)) }
        if let spec = declared.state[key] { return (.state, Self.argumentType(spec.type)) }
        return nil
    }

    private static func argumentType(_ type: ValueType) -> ArgumentType {
        switch type {
        case .string: return .string
        case .integer, .time: return .integer
        case .number: return .number
        case .boolean: return .boolean
        }
    }
}
