import Foundation

/// A program the doctor runs only to read what it prints (`gnome-shell --version`, `gsettings
/// get`): found on PATH, its standard output returned, its errors discarded; nil when it is not
/// there or cannot start.
enum DoctorTool {
    static func output(of name: String, _ arguments: [String], path: String,
                       environment: [String: String]? = nil) -> String? {
        for directory in path.split(separator: ":") {
            let binary = "\(directory)/\(name)"
            guard FileManager.default.isExecutableFile(atPath: binary) else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            if let environment { process.environment = environment }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return output
        }
        return nil
    }
}
