import Foundation
import NetTapCore
import Testing

/// A form body whose `Content-Type` is missing (a HAR entry that says "form" only in `postData.mimeType`) is
/// still redacted as a form.
@Suite("Redactor: form bodies without a content type")
struct RedactorFormSniffTests {
    @Test("a body that reads as a form is redacted as one when no content type is given")
    func sniffedForm() {
        let body = Data("user=ann&password=FORMPASS111&otp=123456".utf8)
        let result = Redactor.default.redact(body: body, contentType: nil)
        #expect(result.value == Data("user=ann&password=%5Bredacted%5D&otp=%5Bredacted%5D".utf8))
        #expect(result.locations.map(\.description) == ["form password", "form otp"])
    }

    @Test(
        "bodies that are not forms are left alone without a content type",
        arguments: ["hello world", "password: hunter22", "a=1\nb=2", "[1,2]", "<p>password=x</p>"]
    )
    func notForms(text: String) {
        #expect(!Redactor.default.redact(body: Data(text.utf8), contentType: nil).didRedact)
    }

    @Test("an explicit content type wins: text/plain that looks like a form is left alone")
    func explicitType() {
        let body = Data("password=hunter22".utf8)
        #expect(!Redactor.default.redact(body: body, contentType: "text/plain").didRedact)
    }
}
