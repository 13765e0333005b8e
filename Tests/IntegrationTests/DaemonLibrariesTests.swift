import Testing
import TestSupport

/// The daemon's memory is mostly the shared libraries it maps: Foundation, its ICU data and
/// FoundationInternationalization added 6 MB of idle RSS when one `import Foundation` came
/// back into a daemon module (docs/benchmarks.md). The daemon links FoundationEssentials only.
@Suite(.timeLimit(.minutes(2)))
struct DaemonLibrariesTests {
    @Test func theDaemonLinksNeitherFoundationNorICU() throws {
        let result = try runCommand("readelf", ["-d", BuiltProducts.path(of: "liveactivityd")], timeout: 30)
        #expect(result.status == 0)
        let needed = result.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
            .compactMap { $0.split(separator: "[").last?.split(separator: "]").first.map(String.init) }
        #expect(needed.contains("libFoundationEssentials.so"), "the check reads the right list")
        #expect(!needed.contains("libFoundation.so"))
        #expect(!needed.contains("libFoundationInternationalization.so"))
        #expect(!needed.contains("lib_FoundationICU.so"))
    }
}
