import CMosquitto

/// libmosquitto's callbacks, as plain C functions that find the `MQTTClient` through the
/// handle's userdata and turn what they receive into `MQTTEvent`s. They run on the network
/// thread, so they are nonisolated free functions that only copy data and call `onEvent`.
enum MQTTCallbacks {
    static func install(on handle: OpaquePointer, _ library: MosquittoLibrary) {
        library.connectWithFlagsCallbackSet(handle, connected)
        library.disconnectCallbackSet(handle, disconnected)
        library.subscribeCallbackSet(handle, subscribed)
        library.messageCallbackSet(handle, received)
        library.publishCallbackSet(handle, published)
        library.logCallbackSet(handle, logged)
    }
}

private func client(_ userdata: UnsafeMutableRawPointer?) -> MQTTClient? {
    userdata.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
}

private func connected(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ code: Int32, _ flags: Int32) {
    guard let client = client(userdata) else { return }
    guard code == 0 else {
        let text = client.library.connackString(code).map { String(cString: $0) } ?? "code \(code)"
        client.onEvent(.connectionFailed(reason: "the broker refused the connection: " + text))
        return
    }
    client.resetBackoff()
    client.onEvent(.connected(sessionPresent: flags & 1 != 0))
}

private func disconnected(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ code: Int32) {
    guard code != 0, let client = client(userdata) else { return }
    client.onEvent(.disconnected(reason: client.library.describe(code)))
}

private func subscribed(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ messageID: Int32, _ count: Int32,
                        _ granted: UnsafePointer<Int32>?) {
    let codes = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, count)))) } ?? []
    client(userdata)?.onEvent(.subscribed(messageID: messageID, grantedQoS: codes))
}

private func received(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ message: UnsafePointer<mosquitto_message>?) {
    guard let message, let client = client(userdata) else { return }
    let topic = message.pointee.topic.map { String(cString: $0) } ?? ""
    let size = Int(max(0, message.pointee.payloadlen))
    var payload: [UInt8]?
    if size <= client.maxPayloadBytes {
        payload = message.pointee.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
    }
    client.onEvent(.message(topic: topic, payload: payload, payloadSize: size))
}

private func published(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ messageID: Int32) {
    client(userdata)?.onEvent(.published(messageID: messageID))
}

/// Every packet libmosquitto writes or reads is logged ("Client … sending PUBLISH"): the
/// client's keepalive schedule hears them (`KeepaliveSchedule`). On the thread that sent or
/// read the packet.
private func logged(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ level: Int32, _ text: UnsafePointer<CChar>?) {
    guard let text, let client = client(userdata) else { return }
    client.heard(String(cString: text))
}
