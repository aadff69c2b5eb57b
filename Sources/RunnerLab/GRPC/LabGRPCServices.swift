import GRPCCore

/// What the lab's gRPC servers answer (issue 48), the same on every gRPC port.
///
/// - `grpc.health.v1.Health/Check` (`LabGRPC.health`): service "" and "payments" are SERVING,
///   "inventory" is NOT_SERVING, any other name fails with NOT_FOUND "unknown service 'NAME'",
///   as the standard health service does; the error goes out Trailers-Only (one HEADERS frame
///   holding grpc-status, no message).
/// - `lab.Echo/Echo` (`LabGRPC.echo`): unary, answers the request message's bytes unchanged.
/// - `lab.Echo/Fail` (`LabGRPC.fail`): unary, fails with UNAVAILABLE and
///   `LabGRPC.failMessage`, whose "%" and spaces the server percent-encodes in grpc-message.
/// - Any other method: UNIMPLEMENTED (grpc-swift's router).
public enum LabGRPC {
    /// The methods, as a request's path names them after its "/" (grpc-swift's descriptors below).
    public static let healthMethod = "grpc.health.v1.Health/Check"
    public static let echoMethod = "lab.Echo/Echo"
    public static let failMethod = "lab.Echo/Fail"

    static let health = MethodDescriptor(fullyQualifiedService: "grpc.health.v1.Health", method: "Check")
    static let echo = MethodDescriptor(fullyQualifiedService: "lab.Echo", method: "Echo")
    static let fail = MethodDescriptor(fullyQualifiedService: "lab.Echo", method: "Fail")

    /// The health service's answers by service name; a name not here is unknown (NOT_FOUND).
    public static let servingStatus: [String: LabHealthCheckResponse.ServingStatus] = [
        "": .serving,
        "payments": .serving,
        "inventory": .notServing,
    ]

    /// What `fail` answers with (UNAVAILABLE).
    public static let failMessage = "edge is draining: 50% done"

    /// The message of the NOT_FOUND a health check of an unknown `service` gets.
    public static func unknownServiceMessage(_ service: String) -> String { "unknown service '\(service)'" }

    /// The lab's gRPC services, to register with a server.
    static var services: [any RegistrableRPCService] { [HealthService(), EchoService()] }
}

/// `grpc.health.v1.Health/Check` over `LabGRPC.servingStatus` (no Watch: a health check is one call).
struct HealthService: RegistrableRPCService {
    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: LabGRPC.health, deserializer: LabMessageCodec.healthCheckRequest,
            serializer: LabMessageCodec.healthCheckResponse
        ) { request, _ in
            let single = try await ServerRequest(stream: request)
            let service = single.message.service
            guard let status = LabGRPC.servingStatus[service] else {
                // Thrown before any message: the transport sends the status in the only HEADERS.
                throw RPCError(code: .notFound, message: LabGRPC.unknownServiceMessage(service))
            }
            return StreamingServerResponse(single: ServerResponse(message: LabHealthCheckResponse(status: status)))
        }
    }
}

/// `lab.Echo`: `Echo` returns the request's bytes, `Fail` fails with `LabGRPC.failMessage`.
struct EchoService: RegistrableRPCService {
    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: LabGRPC.echo, deserializer: LabMessageCodec.bytes, serializer: LabMessageCodec.bytes
        ) { request, _ in
            let single = try await ServerRequest(stream: request)
            return StreamingServerResponse(single: ServerResponse(message: single.message))
        }
        router.registerHandler(
            forMethod: LabGRPC.fail, deserializer: LabMessageCodec.bytes, serializer: LabMessageCodec.bytes
        ) { request, _ in
            _ = try await ServerRequest(stream: request)
            throw RPCError(code: .unavailable, message: LabGRPC.failMessage)
        }
    }
}
