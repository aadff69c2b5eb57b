/// Any key of a plist dictionary, for decoding one whose keys are not known in advance.
struct PlistKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}
