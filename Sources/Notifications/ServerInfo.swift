/// What the notification server says about itself (GetServerInformation + GetCapabilities);
/// the input of `ServerProfile.detect` and what the daemon shows as `NotificationServer`.
public struct ServerInfo: Sendable, Equatable {
    public var name: String
    public var vendor: String
    public var version: String
    public var specVersion: String
    public var capabilities: [String]

    public init(name: String, vendor: String = "", version: String = "", specVersion: String = "",
                capabilities: [String] = []) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
        self.capabilities = capabilities
    }

    /// "name version", as the daemon's `NotificationServer` property shows it.
    public var displayName: String {
        version.isEmpty ? name : "\(name) \(version)"
    }

    public func hasCapability(_ capability: String) -> Bool {
        capabilities.contains(capability)
    }
}
