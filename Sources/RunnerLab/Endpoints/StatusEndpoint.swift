import NIOHTTP1

/// `/status/{code}`: answers with that status (200–599) and a one-line text body.
struct StatusEndpoint: ImmediateEndpoint {
    func response(to request: LabRequest) -> LabResponse {
        guard let code = Int(request.routeParameter), (200...599).contains(code) else {
            return .badRequest("/status/{code} wants a final status 200-599, got \"\(request.routeParameter)\"")
        }
        let status = HTTPResponseStatus(statusCode: code)
        var response = LabResponse.text("\(code) \(status.reasonPhrase)\n", status: status)
        if !status.mayHaveResponseBody {
            // 204 and 304 are defined to have no body; sending one would desync the connection.
            response.body.clear()
        }
        return response
    }
}
