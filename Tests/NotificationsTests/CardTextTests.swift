import Testing
@testable import Notifications

/// Escaping for markup servers, stripping for the others, and the text progress bar.
@Suite(.timeLimit(.minutes(5)))
struct CardTextTests {
    @Test func escapesTheThreeMarkupCharacters() {
        #expect(CardText.escapeMarkup("Tom & Jerry <b>2</b> > 1") == "Tom &amp; Jerry &lt;b&gt;2&lt;/b&gt; &gt; 1")
        #expect(CardText.escapeMarkup("plain") == "plain")
    }

    @Test func stripsSpecTagsButKeepsOtherAngles() {
        #expect(CardText.stripMarkup("<b>Bold</b> and <i>it</i> <u>u</u>") == "Bold and it u")
        #expect(CardText.stripMarkup("<a href=\"https://x\">link</a> <img src=\"a.png\"/>") == "link ")
        #expect(CardText.stripMarkup("a < b > c") == "a < b > c")
        #expect(CardText.stripMarkup("1 <2 and 3> 2") == "1 <2 and 3> 2")
        #expect(CardText.stripMarkup("fish &amp; chips") == "fish &amp; chips")
        #expect(CardText.stripMarkup("unclosed <b") == "unclosed <b")
    }

    @Test func bodyChoosesByMarkup() {
        #expect(CardText.body("<b>x</b> & y", markup: true) == "&lt;b&gt;x&lt;/b&gt; &amp; y")
        #expect(CardText.body("<b>x</b> & y", markup: false) == "x & y")
    }

    @Test(arguments: [
        (0.0, "▱▱▱▱▱▱▱▱▱▱ 0%"),
        (0.45, "▰▰▰▰▱▱▱▱▱▱ 45%"),
        (0.29, "▰▰▱▱▱▱▱▱▱▱ 29%"),
        (0.999, "▰▰▰▰▰▰▰▰▰▱ 99%"),
        (1.0, "▰▰▰▰▰▰▰▰▰▰ 100%"),
        (1.7, "▰▰▰▰▰▰▰▰▰▰ 100%"),
        (-0.2, "▱▱▱▱▱▱▱▱▱▱ 0%"),
    ])
    func progressBar(fraction: Double, expected: String) {
        #expect(CardText.progressBar(fraction) == expected)
    }

    @Test func percentValueIsClampedAndRoundedDown() {
        #expect(CardText.percentValue(0.29) == 29)
        #expect(CardText.percentValue(0.999) == 99)
        #expect(CardText.percentValue(2) == 100)
        #expect(CardText.percentValue(-1) == 0)
        #expect(CardText.percentValue(.nan) == 0)
    }
}
