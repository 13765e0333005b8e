/// How texts are rendered for a consumer: GNOME Shell cards show no seconds.
public struct RenderStyle: Equatable, Hashable, Sendable {
    public var showSeconds: Bool

    public init(showSeconds: Bool = true) {
        self.showSeconds = showSeconds
    }

    public static let standard = RenderStyle(showSeconds: true)
}
