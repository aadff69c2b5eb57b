/// What the lab's `/markup` endpoint sends: markup that would run script wherever a report
/// pasted a server's value into HTML unescaped, in a response header and in the body. Public
/// for the tests that prove no report does.
public enum LabMarkup {
    /// The endpoint's path.
    public static let path = "/markup"
    /// The response header that carries `payload`.
    public static let headerName = "X-Markup"
    /// Two ways in, each leaving a mark in the DOM a test can look for (`data-pwned` on
    /// `<body>`): a `<script>` element, and an image whose error handler runs script. Short
    /// enough (96 characters) to fit whole in the excerpt a failed expectation quotes (120).
    public static let payload =
        #"<script>document.body.dataset.pwned=1</script><img src=x onerror="document.body.dataset.pwned=2">"#
}
