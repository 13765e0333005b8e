/// Where and how to reach an MQTT broker: everything `MQTTClient` needs before it connects.
/// Parsed by the daemon from `liveactivityd.conf`; plain values, so tests and the benchmark
/// build one directly.
public struct MQTTSettings: Sendable, Equatable {
    /// The first broker to try.
    public var host: String
    public var port: Int
    /// Further brokers (nodes of one cluster), tried in order after `host` when it does not
    /// answer or its connection is lost; the session is looked for on each under one client id.
    public var failover: [MQTTAddress] = []
    /// Connect over TLS (`mqtts://`).
    public var tls: Bool
    /// A PEM file of the CA that signed the broker's certificate; nil: the system's CAs.
    public var caFile: String?
    public var username: String?
    public var password: String?
    /// Stable across restarts, so the broker keeps the session (subscriptions and queued
    /// QoS 1 messages) while this client is away.
    public var clientID: String
    /// Keep the session on the broker between connections (MQTT clean session off).
    public var persistentSession: Bool
    public var keepaliveSeconds: Int
    /// The longest wait between two connection attempts (the wait doubles from 1 s up to it).
    public var reconnectMaxSeconds: Int

    public init(host: String, port: Int, tls: Bool = false, caFile: String? = nil, username: String? = nil,
                password: String? = nil, clientID: String, persistentSession: Bool = true,
                keepaliveSeconds: Int = 60, reconnectMaxSeconds: Int = 30) {
        self.host = host
        self.port = port
        self.tls = tls
        self.caFile = caFile
        self.username = username
        self.password = password
        self.clientID = clientID
        self.persistentSession = persistentSession
        self.keepaliveSeconds = keepaliveSeconds
        self.reconnectMaxSeconds = reconnectMaxSeconds
    }
}

/// One broker's host and port (its TLS setting is the client's).
public struct MQTTAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension MQTTSettings {
    /// Every broker, in the order they are tried.
    public var addresses: [MQTTAddress] { [MQTTAddress(host: host, port: port)] + failover }
}

/// What the client reports, on its own thread, to whoever owns it.
public enum MQTTEvent: Sendable {
    /// A connection to this broker is being tried (the first, or the next after a failure).
    case attempting(broker: MQTTAddress)
    /// The broker accepted the connection (CONNACK 0); `sessionPresent`: it kept our session.
    case connected(sessionPresent: Bool)
    /// No connection: the attempt failed or the broker refused it; the client tries again.
    case connectionFailed(reason: String)
    /// An established connection was lost; the client reconnects.
    case disconnected(reason: String)
    /// The broker answered a SUBSCRIBE: one granted QoS per topic, 128 for a refused topic.
    case subscribed(messageID: Int32, grantedQoS: [Int32])
    /// A message on one of our subscriptions. `payload` is nil when it was longer than
    /// `MQTTClient.maxPayloadBytes` (then `payloadSize` says how long).
    case message(topic: String, payload: [UInt8]?, payloadSize: Int)
    /// The broker acknowledged a message we published (QoS 1 PUBACK).
    case published(messageID: Int32)
}
