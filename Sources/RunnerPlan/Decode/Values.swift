/// Typed readers for scalar values. Each reports what it expected and what it found, at the
/// value, and returns nil when the value is unusable.
extension PlanDecoder {
    static let durationExample = "a duration with a unit such as '3s' or '250ms'"
    static let sizeExample = "a size such as 1048576 or '1MiB' (units B, KiB, MiB, GiB)"

    /// Any non-null scalar, as text (`200` and `true` are fine where a string is wanted).
    func string(_ node: YAMLNode, for site: @autoclosure () -> Site) -> Text? {
        guard let text = text(node, expected: "a string", for: site()) else { return nil }
        guard !text.isNull else {
            report(at: text.mark, "expected a string for \(site()), got \(text.quoted)")
            return nil
        }
        return text
    }

    /// A plain integer at least `minimum` (and at most `maximum`).
    func integer(_ node: YAMLNode, for site: @autoclosure () -> Site, minimum: Int? = nil, maximum: Int? = nil) -> Int? {
        // Written out only for an error (numbers interpolated for every integer of a plan cost more
        // than reading it).
        func expected() -> String {
            switch (minimum, maximum) {
            case let (minimum?, maximum?): "an integer from \(minimum) to \(maximum)"
            case (0, nil): "a non-negative integer"
            case let (minimum?, nil): "an integer >= \(minimum)"
            case let (nil, maximum?): "an integer <= \(maximum)"
            case (nil, nil): "an integer"
            }
        }
        guard let text = text(node, expected: expected(), for: site()) else { return nil }
        guard let number = Self.parseInteger(text.value) else {
            report(at: text.mark, "expected \(expected()) for \(site()), got \(text.quoted)")
            return nil
        }
        guard text.isPlain else {
            report(at: text.mark, "expected \(expected()) for \(site()), got the string \(text.quoted); write it without quotes")
            return nil
        }
        if let minimum, number < minimum {
            report(at: text.mark, "expected \(expected()) for \(site()), got \(text.quoted)")
            return nil
        }
        if let maximum, number > maximum {
            report(at: text.mark, "expected \(expected()) for \(site()), got \(text.quoted)")
            return nil
        }
        return number
    }

    /// `true` or `false`, written plain (YAML 1.2: no `yes`/`on`).
    func bool(_ node: YAMLNode, for site: @autoclosure () -> Site) -> Bool? {
        guard let text = text(node, expected: "true or false", for: site()) else { return nil }
        let value: Bool
        switch text.value {
        case "true", "True", "TRUE": value = true
        case "false", "False", "FALSE": value = false
        default:
            report(at: text.mark, "expected true or false for \(site()), got \(text.quoted)")
            return nil
        }
        guard text.isPlain else {
            report(at: text.mark, "expected true or false for \(site()), got the string \(text.quoted); write it without quotes")
            return nil
        }
        return value
    }

    /// `<number><unit>` with unit ms, s or m; more than zero.
    func duration(_ node: YAMLNode, for site: @autoclosure () -> Site) -> Duration? {
        guard let text = text(node, expected: Self.durationExample, for: site()) else { return nil }
        return duration(of: text, for: site())
    }

    /// `text` read as a duration, each refusal reported at it; `expected` is what the value may
    /// be, `alternative` what else it may be than a positive duration (` (or false)`).
    func duration(
        of text: Text, expected: String = PlanDecoder.durationExample, alternative: String = "", for site: @autoclosure () -> Site
    ) -> Duration? {
        switch Self.parseDuration(text.value) {
        case .valid(let duration):
            return duration
        case .notPositive:
            report(at: text.mark, "expected a duration greater than zero for \(site())\(alternative), got \(text.quoted)")
        case .tooLarge:
            report(at: text.mark, "duration \(text.quoted) for \(site()) is too large")
        case .invalid:
            report(at: text.mark, "expected \(expected) for \(site()), got \(text.quoted)")
        }
        return nil
    }

    /// Bytes: an integer, or a string with a unit (`512KiB`, `1MiB`); more than zero.
    func size(_ node: YAMLNode, for site: @autoclosure () -> Site) -> Int? {
        guard let text = text(node, expected: Self.sizeExample, for: site()) else { return nil }
        guard let bytes = Self.parseSize(text.value) else {
            report(at: text.mark, "expected \(Self.sizeExample) for \(site()), got \(text.quoted)")
            return nil
        }
        guard bytes > 0 else {
            report(at: text.mark, "expected a size greater than zero for \(site()), got \(text.quoted)")
            return nil
        }
        return bytes
    }

    /// One of a few words (plain or quoted), with a suggestion when it is close to one.
    func choice(_ node: YAMLNode, for site: @autoclosure () -> Site, among options: [String]) -> Text? {
        // The list is written out only for an error: every enum-like key of a plan comes here.
        func listed() -> String { options.map { "'\($0)'" }.joined(separator: ", ") }
        guard let text = text(node, expected: "one of \(listed())", for: site()) else { return nil }
        guard options.contains(text.value) else {
            let hint = Suggestion.phrase(for: text.value, among: options)
            report(at: text.mark, "expected one of \(listed()) for \(site()), got \(text.quoted)\(hint)")
            return nil
        }
        return text
    }

    /// A sequence's items, or a single scalar as a one-item list (`tags: smoke`).
    func items(_ node: YAMLNode, expected: String, for site: @autoclosure () -> Site) -> YAMLItems? {
        switch node.content {
        case .sequence(let items): return .sequence(items)
        case .scalar: return .single(node)
        case .mapping:
            report(at: node.mark, "expected \(expected) for \(site()), got a mapping")
            return nil
        }
    }

    // MARK: Parsing (pure, byte-level: these run for every scalar of a large plan)

    /// A decimal integer with an optional sign; nil when it is not one or overflows.
    static func parseInteger(_ text: String) -> Int? {
        return text.withUTF8Bytes { utf8 -> Int? in
            var index = 0
            var negative = false
            if let first = utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
                negative = first == UInt8(ascii: "-")
                index = 1
            }
            guard index < utf8.count else { return nil }
            var value = 0
            while index < utf8.count {
                let byte = utf8[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                value = sum
                index += 1
            }
            return negative ? -value : value
        }
    }

    enum DurationParse: Equatable {
        case valid(Duration)
        case notPositive
        case tooLarge
        case invalid
    }

    static func parseDuration(_ text: String) -> DurationParse {
        // Scanned in place: no array or string is made for the common `800ms`, `5s`.
        let scan: (numberEnd: Int, wholeNumber: Double?, nanosecondsPerUnit: Double)? = text.withUTF8Bytes { utf8 in
            var index = 0
            var negative = false
            if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
                negative = utf8[index] == UInt8(ascii: "-")
                index += 1
            }
            var digits = 0
            var sawPoint = false
            var whole = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    digits += 1
                    if digits <= 15 { whole = whole * 10 + Int(byte - UInt8(ascii: "0")) }
                } else if byte == UInt8(ascii: "."), !sawPoint {
                    sawPoint = true
                } else {
                    break
                }
                index += 1
            }
            guard digits > 0 else { return nil }
            let nanosecondsPerUnit: Double
            switch (utf8.count - index, utf8.count > index ? utf8[index] : 0, utf8.count > index + 1 ? utf8[index + 1] : 0) {
            case (2, UInt8(ascii: "m"), UInt8(ascii: "s")): nanosecondsPerUnit = 1e6
            case (1, UInt8(ascii: "s"), _): nanosecondsPerUnit = 1e9
            case (1, UInt8(ascii: "m"), _): nanosecondsPerUnit = 60e9
            case (1, UInt8(ascii: "h"), _): nanosecondsPerUnit = 3600e9
            case (1, UInt8(ascii: "d"), _): nanosecondsPerUnit = 86_400e9
            default: return nil
            }
            // Up to 15 digits without a point the value is exact, as Double(text) would give it.
            let wholeNumber = !sawPoint && digits <= 15 ? Double(negative ? -whole : whole) : nil
            return (index, wholeNumber, nanosecondsPerUnit)
        }
        guard let scan else { return .invalid }
        guard let number = scan.wholeNumber ?? Double(String(decoding: text.utf8.prefix(scan.numberEnd), as: UTF8.self))
        else { return .invalid }
        let nanoseconds = (number * scan.nanosecondsPerUnit).rounded()
        guard nanoseconds >= 1 else { return .notPositive }
        guard nanoseconds < 1e18 else { return .tooLarge }
        return .valid(.nanoseconds(Int64(nanoseconds)))
    }

    /// `1048576`, `512KiB`, `1 MiB`, `10B`; nil when malformed or too large.
    static func parseSize(_ text: String) -> Int? {
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count, utf8[index] >= UInt8(ascii: "0"), utf8[index] <= UInt8(ascii: "9") { index += 1 }
        guard index > 0, let number = parseInteger(String(decoding: utf8[..<index], as: UTF8.self)) else { return nil }
        var unitStart = index
        if unitStart < utf8.count, utf8[unitStart] == UInt8(ascii: " ") { unitStart += 1 }
        let multiplier: Int
        switch String(decoding: utf8[unitStart...], as: UTF8.self) {
        case "" where unitStart == index: multiplier = 1
        case "B": multiplier = 1
        case "KiB": multiplier = 1 << 10
        case "MiB": multiplier = 1 << 20
        case "GiB": multiplier = 1 << 30
        default: return nil
        }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : bytes
    }
}
