/// What `runner init --har` was asked for, as the drafter needs it.
public struct CaptureDraftOptions: Sendable, Equatable {
    /// Host patterns (`*` and `?` globs) to keep; empty keeps every host.
    public var hosts: [String]
    /// Host patterns, or URL patterns when they hold a `/`, to leave out.
    public var excluded: [String]
    /// A map of the team's the scenarios use instead of the captured addresses.
    public var mapName: String?
    /// The folder, relative to the plan, that body files go in; nil writes `body_base64`.
    public var bodiesFolder: String?

    public init(hosts: [String] = [], excluded: [String] = [], mapName: String? = nil, bodiesFolder: String? = nil) {
        self.hosts = hosts
        self.excluded = excluded
        self.mapName = mapName
        self.bodiesFolder = bodiesFolder
    }

    /// The static map's name when the captured addresses are written.
    public static let capturedMapName = "captured"
}
