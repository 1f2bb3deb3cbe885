import Foundation
import Testing

@testable import NetTapFiles

@Suite("Entity tags (RFC 9110 §8.8)")
struct ValidatorTests {
    @Test("If-None-Match lists parse into tags, weak ones marked, and * into any")
    func parsesLists() {
        #expect(EntityTag.parseList("*") == .any)
        #expect(
            EntityTag.parseList(#" "a", W/"b" ,,"c-d" "#)
                == .tags([
                    EntityTag(opaque: "a", isWeak: false), EntityTag(opaque: "b", isWeak: true),
                    EntityTag(opaque: "c-d", isWeak: false),
                ])
        )
        #expect(EntityTag.parseList("abc") == nil)
        #expect(EntityTag.parseList(#""a" "b""#) == nil)
        #expect(EntityTag.parseList(#""a b""#) == nil)
        #expect(EntityTag.parseList("") == nil)
    }

    @Test("weak comparison ignores W/, strong comparison needs both strong")
    func compares() {
        let strong = EntityTag(opaque: "x", isWeak: false)
        let weak = EntityTag(opaque: "x", isWeak: true)
        #expect(weak.weaklyMatches(strong))
        #expect(!weak.stronglyMatches(strong))
        #expect(strong.stronglyMatches(EntityTag(opaque: "x", isWeak: false)))
        #expect(!strong.weaklyMatches(EntityTag(opaque: "y", isWeak: false)))
        #expect(weak.headerValue == #"W/"x""#)
    }
}
