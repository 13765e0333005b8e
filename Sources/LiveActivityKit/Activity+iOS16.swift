/// ActivityKit's first API (iOS 16.1), deprecated in iOS 16.2 in favour of `ActivityContent`;
/// kept so older code ports too.
extension Activity {
    @available(*, deprecated, message: "Use request(attributes:content:pushType:)")
    public static func request(attributes: Attributes, contentState: ContentState,
                               pushType: PushType? = nil) throws -> Activity<Attributes> {
        try request(attributes: attributes, content: ActivityContent(state: contentState, staleDate: nil), pushType: pushType)
    }

    @available(*, deprecated, message: "Use update(_:)")
    public func update(using contentState: ContentState) async {
        await update(ActivityContent(state: contentState, staleDate: nil))
    }

    @available(*, deprecated, message: "Use update(_:alertConfiguration:)")
    public func update(using contentState: ContentState, alertConfiguration: AlertConfiguration?) async {
        await update(ActivityContent(state: contentState, staleDate: nil), alertConfiguration: alertConfiguration)
    }

    @available(*, deprecated, message: "Use end(_:dismissalPolicy:)")
    public func end(using contentState: ContentState? = nil, dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        await end(contentState.map { ActivityContent(state: $0, staleDate: nil) }, dismissalPolicy: dismissalPolicy)
    }
}
