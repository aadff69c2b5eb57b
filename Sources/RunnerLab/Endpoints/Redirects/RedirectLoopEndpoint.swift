/// `/redirect-loop`: 302 to itself, forever, so a client's redirect limit must end it.
struct RedirectLoopEndpoint: ImmediateEndpoint {
    func response(to request: LabRequest) -> LabResponse {
        .redirect(.found, to: "/redirect-loop")
    }
}
