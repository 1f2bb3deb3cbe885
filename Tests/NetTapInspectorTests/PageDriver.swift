import Foundation
import Testing

/// Drives a page in headless Chromium the way a person does: mouse presses at an element's centre and keys and
/// typed text, waiting in the page for what an action should show.
///
/// Elements are named by a JavaScript expression that evaluates to one (or `null`): ``selector(_:)`` for the
/// page's own DOM, ``deep(_:)`` for DevTools' frontend, whose controls live in shadow roots.
struct PageDriver {
    let page: DevToolsTestClient

    /// The element `selector` selects in the page's DOM.
    static func selector(_ selector: String) -> String {
        "document.querySelector(\(quoted(selector)))"
    }

    /// The first element, searching shadow roots too, for which `predicate` (a JavaScript expression of `n`) is
    /// true.
    static func deep(_ predicate: String) -> String {
        """
        (() => {
          const all = [];
          const walk = node => {
            if (node.shadowRoot) walk(node.shadowRoot);
            for (const child of node.children || []) walk(child);
            all.push(node);
          };
          walk(document.documentElement);
          return all.find(n => \(predicate)) || null;
        })()
        """
    }

    /// Evaluates `expression` in the page (awaiting a promise) and returns its value.
    func evaluate(_ expression: String) async throws -> Any? {
        let answer = try await page.command(
            "Runtime.evaluate",
            ["expression": expression, "awaitPromise": true, "returnByValue": true]
        )
        let result = (answer["result"] as? [String: Any])?["result"] as? [String: Any]
        return result?["value"]
    }

    /// Waits in the page (up to 30 s) until `condition`, a JavaScript expression, is true; returns whether it
    /// became true.
    func waitUntil(_ condition: String) async throws -> Bool {
        let script = """
            new Promise(resolve => {
              const deadline = Date.now() + 30000;
              const check = () => {
                let done = false;
                try { done = !!(\(condition)); } catch (error) {}
                if (done || Date.now() > deadline) resolve(done); else setTimeout(check, 50);
              };
              check();
            })
            """
        return try await evaluate(script) as? Bool ?? false
    }

    /// Presses and releases the left mouse button at the centre of `element` (an expression, see above).
    func click(_ element: String) async throws {
        let found = try await waitUntil(element)
        try #require(found, "no element \(element)")
        let box = try await evaluate(
            """
            (() => {
              const element = \(element);
              element.scrollIntoView({block: "center"});
              const r = element.getBoundingClientRect();
              return [r.left + r.width / 2, r.top + r.height / 2];
            })()
            """
        )
        let point = try #require(box as? [Double], "no box for \(element)")
        for type in ["mouseMoved", "mousePressed", "mouseReleased"] {
            try await page.command(
                "Input.dispatchMouseEvent",
                ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1]
            )
        }
    }

    /// Clicks the element `selector` selects and waits until it shows as pressed (`aria-pressed`).
    func choose(_ selector: String) async throws {
        try await click(Self.selector(selector))
        let pressed = try await waitUntil("\(Self.selector(selector)).getAttribute('aria-pressed') === 'true'")
        #expect(pressed, "\(selector) not shown as chosen after the click")
    }

    /// Clicks into the element `selector` selects and types `text` as keyboard input.
    func type(_ text: String, into selector: String) async throws {
        try await click(Self.selector(selector))
        try await page.command("Input.insertText", ["text": text])
    }

    /// Presses a key `count` times (`ArrowDown`: key code 40) in the focused element.
    func press(_ key: String, code: Int, times count: Int = 1) async throws {
        for _ in 0..<count {
            for type in ["keyDown", "keyUp"] {
                try await page.command(
                    "Input.dispatchKeyEvent",
                    ["type": type, "key": key, "code": key, "windowsVirtualKeyCode": code]
                )
            }
        }
    }

    /// `text` as a JavaScript string literal.
    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
