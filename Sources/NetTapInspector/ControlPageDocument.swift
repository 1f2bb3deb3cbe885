import Foundation
import NetTapCrypto

/// The control page's HTML: self-contained (no file, font or script from elsewhere), its script allowed by hash
/// alone (`Content-Security-Policy`), every value from the app put into the page as text, never as markup.
///
/// The script polls `GET /control/state` every second and rebuilds a section only when its content changed, so
/// a click is never lost to a redraw and a host scope being edited is kept until it is applied.
enum ControlPageDocument {
    /// The page for the app `title`, carrying the per-run `token` its script sends with every request.
    static func html(title: String, token: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="nettap-token" content="\(escaped(token))">
        <title>NetTap: \(escaped(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        \(body)
        <script>\(script)</script>
        </body>
        </html>
        """
    }

    /// The header fields sent with the page: a policy that runs only its own script, no framing, no sniffing.
    static let securityFields: [(name: String, value: String)] = [
        ("Content-Security-Policy", policy),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    private static let policy: String = {
        let digest = try? StreamingDigest.hash(Data(script.utf8), using: .sha256)
        let scripts = digest.map { "'sha256-\($0.base64EncodedString())'" } ?? "'unsafe-inline'"
        return "default-src 'none'; script-src \(scripts); style-src 'unsafe-inline'; connect-src 'self'; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }()

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static let style = """
        :root { color-scheme: light dark; --line: #8884; --accent: #1a73e8; }
        body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 980px; padding: 16px 20px 40px; }
        header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 8px 16px; }
        h1 { font-size: 20px; margin: 0; } h2 { font-size: 16px; margin: 0 0 8px; } h3 { font-size: 14px; }
        section { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin-top: 14px; }
        .muted { opacity: .7; } .live { font-weight: 600; }
        .choices { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
        button { font: inherit; padding: 3px 10px; border: 1px solid var(--line); border-radius: 14px;
          background: transparent; color: inherit; cursor: pointer; }
        button[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
        table { border-collapse: collapse; width: 100%; margin: 6px 0; }
        th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
        textarea { width: 100%; min-height: 3.5em; font: 13px ui-monospace, monospace; box-sizing: border-box; }
        input { font: inherit; }
        #devtools-url { width: 100%; box-sizing: border-box; font: 13px ui-monospace, monospace; }
        label { display: block; margin: 6px 0; } .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
        #error { color: #fff; background: #c5221f; padding: 8px 12px; border-radius: 6px; }
        code { font: 13px ui-monospace, monospace; }
        """

    private static let body = """
        <header>
          <h1>NetTap <span id="title"></span></h1>
          <span id="counts" class="live"></span>
          <span id="connection" class="muted"></span>
          <button id="capture" type="button" hidden></button>
        </header>
        <p id="error" role="alert" hidden></p>
        <section id="devtools">
          <h2>Chrome DevTools</h2>
          <input id="devtools-url" readonly aria-label="DevTools URL">
          <div class="choices"><button id="copy" type="button">Copy link</button></div>
          <p class="muted">Paste the link into the address bar of Chrome, Edge or Brave (a page cannot open
          <code>devtools://</code> links), or add <code id="discovery"></code> under <code>chrome://inspect</code>
          → Discover network targets.</p>
        </section>
        <section id="network" hidden>
          <h2>Network profile</h2>
          <p>Every request: <strong id="profile"></strong> <span id="profile-source" class="muted"></span></p>
          <div id="presets" class="choices"></div>
          <h3>Rules (the first that matches a request decides)</h3>
          <table><thead><tr><th>Requests</th><th>Profile</th><th></th></tr></thead><tbody id="rules"></tbody></table>
          <div class="choices">
            <input id="rule-host" placeholder="api.example.com or *.example.com" aria-label="Host">
            <select id="rule-preset" aria-label="Preset"></select>
            <button id="rule-add" type="button">Add rule</button>
          </div>
        </section>
        <section id="scope" hidden>
          <h2>Host scope</h2>
          <p class="muted">Requests to hosts outside the scope go to the network untouched and are not captured. One
          pattern per line: a host, <code>*.domain</code> for its subdomains, or <code>regex:…</code>.</p>
          <div class="grid">
            <label>Allow (empty: every host)<textarea id="allow" spellcheck="false"></textarea></label>
            <label>Deny<textarea id="deny" spellcheck="false"></textarea></label>
          </div>
          <div class="choices"><button id="scope-apply" type="button">Apply scope</button></div>
        </section>
        <section id="mocks" hidden>
          <h2>Mocks</h2>
          <div id="mock-sets"></div>
        </section>
        <p id="footer" class="muted" hidden>Every change applies to the next request the app starts.</p>
        """

    private static let script = #"""
        "use strict";
        const token = document.querySelector('meta[name="nettap-token"]').content;
        const $ = id => document.getElementById(id);
        const built = {};
        let scopeEdited = false;

        function node(tag, props, ...children) {
          const element = document.createElement(tag);
          for (const [key, value] of Object.entries(props || {})) {
            if (key.startsWith("data-") || key.startsWith("aria-")) element.setAttribute(key, value);
            else element[key] = value;
          }
          element.append(...children);
          return element;
        }

        function choice(label, pressed, action, data) {
          const button = node("button", Object.assign({type: "button", "aria-pressed": String(pressed)}, data), label);
          button.addEventListener("click", action);
          return button;
        }

        function showError(text) {
          $("error").hidden = !text;
          $("error").textContent = text || "";
        }

        async function request(method, path, params) {
          const query = params ? "?" + new URLSearchParams(params).toString() : "";
          const response = await fetch(path + query, {method, headers: {"X-NetTap-Token": token}});
          const text = await response.text();
          let body;
          try { body = JSON.parse(text); } catch { body = {error: text.trim() || "HTTP " + response.status}; }
          if (!response.ok) throw new Error(body.error || "HTTP " + response.status);
          return body;
        }

        async function change(action, params) {
          try {
            const state = await request("POST", "/control/" + action, params);
            showError(null);
            render(state);
            document.body.dataset.changes = String(Number(document.body.dataset.changes || 0) + 1);
            return true;
          } catch (error) {
            showError(error.message);
            return false;
          }
        }

        function once(name, value, build) {
          const key = JSON.stringify(value);
          if (built[name] === key) return;
          built[name] = key;
          build(value);
        }

        function render(state) {
          document.title = "NetTap: " + state.title;
          $("title").textContent = state.title;
          const kept = state.capacity ? " of " + state.capacity : "";
          const plural = (count, word) => count + " " + word + (count === 1 ? "" : "s");
          $("counts").textContent = state.isLive
            ? plural(state.requestCount, "request") + " since the inspector started · " + state.captured + kept
              + " in the capture"
            : plural(state.captured, "recorded transaction");
          $("devtools-url").value = state.devToolsURL;
          $("discovery").textContent = state.discoveryAddress;
          const capture = $("capture");
          capture.hidden = state.isCapturing === undefined;
          capture.textContent = state.isCapturing ? "Capturing: on" : "Capturing: off (paused)";
          capture.setAttribute("aria-pressed", String(!!state.isCapturing));
          if (state.network) once("network", state.network, renderNetwork);
          if (state.scope) once("scope", state.scope, renderScope);
          once("mocks", state.mocks.map(set => Object.assign({}, set, {stubs: set.stubs.map(stub =>
            Object.assign({}, stub, {hits: undefined}))})), () => renderMocks(state.mocks));
          for (const [index, set] of state.mocks.entries()) {
            for (const [row, stub] of set.stubs.entries()) {
              const cell = document.querySelector('[data-hits="' + index + "-" + row + '"]');
              if (cell) cell.textContent = String(stub.hits);
            }
          }
        }

        function renderNetwork(network) {
          $("network").hidden = false;
          $("profile").textContent = network.profile;
          $("profile-source").textContent = network.source ? "(set by " + network.source + ")" : "(the app's own)";
          const ownPressed = !network.source;
          $("presets").replaceChildren(
            choice("App's own", ownPressed, () => change("profile", {preset: ""}), {"data-preset": ""}),
            ...network.presets.map(name => choice(name, network.source === name,
              () => change("profile", {preset: name}), {"data-preset": name})));
          $("rules").replaceChildren(...network.rules.map(rule => node("tr", {},
            node("td", {}, rule.matcher), node("td", {}, rule.profile),
            node("td", {}, rule.pageHost ? choice("Remove", false,
              () => change("rule/remove", {host: rule.pageHost}), {"data-remove-rule": rule.pageHost}) : ""))));
          if (!network.rules.length) $("rules").append(node("tr", {}, node("td", {colSpan: 3, className: "muted"},
            "No rules: every request gets the profile above.")));
          const select = $("rule-preset");
          if (!select.options.length) select.append(...network.presets.map(name => node("option", {value: name}, name)));
        }

        function renderScope(scope) {
          $("scope").hidden = false;
          if (scopeEdited) return;
          $("allow").value = scope.allowHosts.join("\n");
          $("deny").value = scope.denyHosts.join("\n");
        }

        function renderMocks(sets) {
          $("mocks").hidden = sets.length === 0;
          $("mock-sets").replaceChildren(...sets.map((set, index) => {
            const scenarios = node("div", {className: "choices"},
              choice("No scenario", !set.activeScenario, () => change("scenario", {mocks: index, name: ""}),
                {"data-scenario": "", "data-mocks": index}),
              ...set.scenarios.map(name => choice(name, set.activeScenario === name,
                () => change("scenario", {mocks: index, name}), {"data-scenario": name, "data-mocks": index})));
            const rows = set.stubs.map((stub, row) => node("tr", {},
              node("td", {}, stub.name), node("td", {className: stub.scenario ? "" : "muted"}, stub.scenario || "base"),
              node("td", {"data-hits": index + "-" + row}, String(stub.hits)),
              node("td", {}, stub.alternatives.length ? node("div", {className: "choices"},
                ...stub.alternatives.map(name => choice(name, stub.activeAlternative === name,
                  () => change("alternative", Object.assign({mocks: index, stub: stub.name, name},
                    stub.scenario ? {scenario: stub.scenario} : {})),
                  {"data-alternative": stub.name + "/" + name, "data-mocks": index}))) : "")));
            return node("div", {},
              node("h3", {}, "Mock handler \u201c" + set.handler + "\u201d" + (sets.length > 1 ? " (set " + index + ")" : "")),
              set.scenarios.length ? scenarios : node("p", {className: "muted"}, "No scenarios."),
              node("table", {}, node("thead", {}, node("tr", {}, node("th", {}, "Stub"), node("th", {}, "Scenario"),
                node("th", {}, "Hits"), node("th", {}, "Alternatives"))), node("tbody", {}, ...rows)));
          }));
        }

        $("capture").addEventListener("click", () =>
          change("capture", {on: $("capture").getAttribute("aria-pressed") === "true" ? "0" : "1"}));
        $("copy").addEventListener("click", async () => {
          $("devtools-url").select();
          try { await navigator.clipboard.writeText($("devtools-url").value); } catch { document.execCommand("copy"); }
        });
        $("rule-add").addEventListener("click", async () => {
          if (await change("rule", {host: $("rule-host").value, preset: $("rule-preset").value})) $("rule-host").value = "";
        });
        for (const id of ["allow", "deny"]) $(id).addEventListener("input", () => { scopeEdited = true; });
        $("scope-apply").addEventListener("click", async () => {
          scopeEdited = false;
          if (!(await change("scope", {allow: $("allow").value, deny: $("deny").value}))) scopeEdited = true;
        });

        async function poll() {
          try {
            const state = await request("GET", "/control/state");
            render(state);
            $("connection").textContent = state.isLive ? "live" : "recorded traffic: nothing to switch";
            $("footer").hidden = !state.isLive;
          } catch (error) {
            $("connection").textContent = "not connected: " + error.message;
          }
          setTimeout(poll, 1000);
        }
        poll();
        """#
}
