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

/// The kinds the daemon knows. Reading them from kind directories (shipped first, the user's
/// after) is `ActivityFiles`' job (`KindCatalog.load`); this target only parses.
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

    /// Parses kind JSON; `file` names it in problems.
    /// Refuses a file over `InputLimits.kindFileBytes` and one whose strings hold a NUL
    /// (`\u0000`), which no text on the bus may carry.
    public static func parse(_ data: Data, file: String) throws(KindProblem) -> Kind {
        guard data.count <= InputLimits.kindFileBytes else {
            throw KindProblem(file: file, message: "the file has \(data.count) bytes; at most \(InputLimits.kindFileBytes) are accepted")
        }
        if let offset = KindFileText.nulEscapeOffset(data) {
            throw KindProblem(file: file, message: "byte \(offset + 1): a string holds a NUL character (\\u0000); "
                              + "text on the bus cannot hold NUL")
        }
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
