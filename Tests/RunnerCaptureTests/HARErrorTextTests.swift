import Foundation
import Testing
@testable import RunnerCapture

/// An error quotes the capture's text on one line: controls shown as `\u{…}`, a tab kept (`tab-in-url`).
@Suite struct HARErrorTextTests {
    @Test func tabStaysOtherControlsShow() {
        let tab = HARFixture.refusal(HARFixture.log([HARFixture.entry(url: #"h\ttps://a.com/v1/"#)]), path: "c.har")
        #expect(tab == "c.har: entry 0: request.url 'h\ttps://a.com/v1/' is not an absolute http or https URL")
        let newline = HARFixture.refusal(HARFixture.log([HARFixture.entry(url: #"h\nttps://a.com/"#)]), path: "c.har")
        #expect(newline == #"c.har: entry 0: request.url 'h\u{A}ttps://a.com/' is not an absolute http or https URL"#)
    }
}
