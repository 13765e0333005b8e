#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ActivityModel

/// Reading kind files from disk, kept out of the pure model: the daemon and the CLI load the
/// same directories the same way, the model only parses what they read.
extension KindCatalog {
    /// Loads every `*.json` file of each directory in order; a later directory overrides an
    /// earlier one kind by kind. Missing directories are skipped silently.
    public static func load(directories: [String]) -> KindCatalog {
        var kinds: [Kind] = []
        var problems: [KindProblem] = []
        for directory in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names.sorted() where name.hasSuffix(".json") {
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                do throws(KindProblem) {
                    kinds.append(try loadFile(atPath: path))
                } catch {
                    problems.append(error)
                }
            }
        }
        return KindCatalog(kinds: kinds, problems: problems)
    }

    /// Loads one kind file; its name must match the file name (`focus.json` holds `focus`).
    public static func loadFile(atPath path: String) throws(KindProblem) -> Kind {
        let data: Data
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
           let tooLarge = sizeProblem(bytes: size, file: path) {
            throw tooLarge
        }
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
}
