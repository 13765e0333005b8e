#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A kind file that could not be loaded, and why (with the key path or JSON position).
public struct KindProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path of the file.
    public let file: String
    public let message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}

/// The kinds the daemon knows, loaded from kind directories (shipped first, the user's after).
public struct KindCatalog: Sendable {
    public private(set) var kinds: [String: Kind]
    /// Files that were skipped, each with the reason; other kinds still load.
    public private(set) var problems: [KindProblem]

    public init(kinds: [Kind] = [], problems: [KindProblem] = []) {
        var byName: [String: Kind] = [:]
        for kind in kinds { byName[kind.name] = kind }
        self.kinds = byName
        self.problems = problems
    }

    /// Kind names, sorted (the `Kinds` property).
    public var names: [String] { kinds.keys.sorted() }

    public func kind(named name: String) -> Kind? { kinds[name] }

    /// Loads every `*.json` file of each directory in order; a later directory overrides an
    /// earlier one kind by kind. Missing directories are skipped silently.
    public static func load(directories: [String]) -> KindCatalog {
        var catalog = KindCatalog()
        for directory in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names.sorted() where name.hasSuffix(".json") {
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                do throws(KindProblem) {
                    let kind = try loadFile(atPath: path)
                    catalog.kinds[kind.name] = kind
                } catch {
                    catalog.problems.append(error)
                }
            }
        }
        return catalog
    }

    /// Loads one kind file; its name must match the file name (`focus.json` holds `focus`).
    public static func loadFile(atPath path: String) throws(KindProblem) -> Kind {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw KindProblem(file: path, message: "cannot read the file: \(error)")
        }
        let kind = try parse(data, file: path)
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        guard fileName == "\(kind.name).json" else {
            throw KindProblem(file: path, message: "name: the kind is called \"\(kind.name)\", so the file must be \(kind.name).json")
        }
        return kind
    }

    /// Parses kind JSON; `file` names it in problems.
    public static func parse(_ data: Data, file: String) throws(KindProblem) -> Kind {
        let definition: KindFile
        do {
            definition = try JSONDecoder().decode(KindFile.self, from: data)
        } catch let error as DecodingError {
            throw KindProblem(file: file, message: error.kindFileDescription)
        } catch {
            throw KindProblem(file: file, message: "\(error)")
        }
        do throws(KindDefinitionError) {
            return try Kind(compiling: definition)
        } catch {
            throw KindProblem(file: file, message: error.message)
        }
    }
}
