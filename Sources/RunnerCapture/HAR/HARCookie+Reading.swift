extension HARCookie {
    /// `cookies`, in order; Charles writes `null` in cookie fields, read as empty.
    static func readList(_ owner: HARObject) throws(HARReadError) -> [HARCookie] {
        try owner.objects("cookies").map { (cookie) throws(HARReadError) in
            HARCookie(name: try cookie.string("name") ?? "", value: try cookie.string("value") ?? "")
        }
    }
}
