// The inline stylesheet and script of an HTMLReport. The script puts capture text on the page only through
// textContent (and `new Option`), never through innerHTML.

/// The CSS and JavaScript every ``HTMLReport`` embeds.
enum ReportAssets {
    static let style = #"""
        :root { color-scheme: light dark; --fg: #1d232b; --muted: #66707c; --bg: #fff; --panel: #f5f7fa;
          --line: #d9dee5; --accent: #2a6fdb; --up: #1f9d55; --down: #2a6fdb; --bad: #c53030; --warn: #b7791f; }
        @media (prefers-color-scheme: dark) { :root { --fg: #e6e9ee; --muted: #9aa4b1; --bg: #14181d;
          --panel: #1c2229; --line: #2e3640; --accent: #6ea2ff; --down: #6ea2ff; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
          background: var(--bg); }
        header, main { max-width: 1400px; margin: 0 auto; padding: 0 16px; }
        h1 { font-size: 22px; margin: 16px 0 4px; } h2 { font-size: 17px; margin: 24px 0 8px; }
        h3 { font-size: 15px; margin: 8px 0; word-break: break-all; } h4 { margin: 14px 0 4px; font-size: 13px; }
        .muted { color: var(--muted); }
        .badge { display: inline-block; padding: 1px 7px; border-radius: 9px; background: var(--panel);
          border: 1px solid var(--line); font-size: 12px; }
        .badge.ok { color: var(--up); } .badge.bad, .sev-high { color: var(--bad); } .sev-medium { color: var(--warn); }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(120px, 1fr)); gap: 8px; }
        .card { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; }
        .card .value { font-size: 19px; font-weight: 600; white-space: nowrap; overflow: hidden;
          text-overflow: ellipsis; } .card .value.long { font-size: 15px; line-height: 26px; } .card .label { color: var(--muted); font-size: 12px; }
        svg.chart { width: 100%; height: auto; background: var(--panel); border: 1px solid var(--line);
          border-radius: 6px; }
        svg .grid { stroke: var(--line); stroke-width: 1; } svg .axis { fill: var(--muted); font-size: 11px; }
        svg polyline { fill: none; stroke-width: 1.6; } svg polyline.up { stroke: var(--up); }
        svg polyline.down { stroke: var(--down); }
        svg circle.up { fill: var(--up); } svg circle.down { fill: var(--down); }
        svg .queue { fill: #a0aec0; } svg .wait { fill: #dd8a2c; } svg .receive { fill: var(--down); }
        svg a:hover rect { opacity: .7; }
        svg .ph-dns, .key.ph-dns { fill: #319795; background: #319795; }
        svg .ph-connect, .key.ph-connect { fill: #dd6b20; background: #dd6b20; }
        svg .ph-ssl, .key.ph-ssl { fill: #805ad5; background: #805ad5; }
        svg .ph-send, .key.ph-send { fill: #38a169; background: #38a169; }
        svg .ph-wait, .key.ph-wait { fill: #d69e2e; background: #d69e2e; }
        svg .ph-receive, .key.ph-receive { fill: #3182ce; background: #3182ce; }
        svg .s0 { fill: #718096; } svg .s1, svg .s2 { fill: var(--up); } svg .s3 { fill: #3182ce; }
        svg .s4 { fill: var(--warn); } svg .s5 { fill: var(--bad); }
        .legend { color: var(--muted); font-size: 12px; margin: 4px 0; }
        .key { display: inline-block; width: 12px; height: 8px; margin: 0 4px 0 10px; }
        .key.up { background: var(--up); } .key.down { background: var(--down); } .key.queue { background: #a0aec0; }
        .key.wait { background: #dd8a2c; } .key.receive { background: var(--down); }
        .scroll { overflow-x: auto; }
        table.grid { border-collapse: collapse; width: 100%; font-size: 13px; }
        table.grid th, table.grid td { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: right;
          white-space: nowrap; }
        table.grid td:first-child { white-space: normal; overflow-wrap: break-word; }
        table.grid td:last-child { white-space: normal; min-width: 8em; }
        table.grid th:first-child, table.grid td:first-child, table.grid th:last-child, table.grid td:last-child {
          text-align: left; }
        table.grid tr.total td { font-weight: 600; }
        ul.findings { padding-left: 18px; } ul.findings li { margin: 3px 0; word-break: break-word; }
        .filters { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; margin-bottom: 8px; }
        .filters label { font-size: 12px; color: var(--muted); }
        .filters input, .filters select, .filters button { font: inherit; margin-left: 4px; }
        .split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 12px; }
        @media (max-width: 900px) { .split { grid-template-columns: 1fr; } }
        .table { border: 1px solid var(--line); border-radius: 6px; overflow: hidden; }
        .tx-head, .tx-row { display: grid; align-items: center; grid-template-columns: 96px 64px 56px
          minmax(64px, var(--host-width, 1fr)) minmax(80px, 1fr) minmax(56px, 80px) 72px 64px 24px; }
        .tx-head { background: var(--panel); border-bottom: 1px solid var(--line); }
        .tx-head button { font: inherit; font-size: 12px; font-weight: 600; text-align: left; background: none;
          border: 0; color: var(--fg); padding: 6px; cursor: pointer; overflow: hidden; text-overflow: ellipsis;
          white-space: nowrap; min-width: 0; }
        .tx-head button.num { text-align: right; }
        .tx-head button[aria-sort="ascending"]::after { content: " ▲"; }
        .tx-head button[aria-sort="descending"]::after { content: " ▼"; }
        .viewport { height: 560px; overflow-y: auto; position: relative; }
        .rows { position: relative; }
        .tx-row { position: absolute; left: 0; right: 0; height: 24px; font-size: 12px; cursor: pointer;
          border-bottom: 1px solid var(--line); }
        .tx-row span { padding: 0 6px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .tx-row:hover { background: var(--panel); } .tx-row.selected { background: rgba(42, 111, 219, .18); }
        .tx-row .num { text-align: right; }
        .st-2 { color: var(--up); } .st-3 { color: #3182ce; } .st-4 { color: var(--warn); }
        .st-5, .st-0 { color: var(--bad); font-weight: 600; }
        .detail { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; max-height: 600px;
          overflow: auto; background: var(--panel); }
        .detail dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; font-size: 13px; }
        .detail dt { color: var(--muted); } .detail dd { margin: 0; word-break: break-all; }
        .detail table { border-collapse: collapse; font-size: 12px; width: 100%; }
        .detail td { border-bottom: 1px solid var(--line); padding: 2px 6px; vertical-align: top;
          word-break: break-all; } .detail td:first-child { font-weight: 600; white-space: nowrap; }
        pre { background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 6px;
          font: 12px/1.35 ui-monospace, "SF Mono", Menlo, Consolas, monospace; overflow: auto; max-height: 360px;
          white-space: pre-wrap; word-break: break-all; margin: 4px 0; }
        pre.hex { white-space: pre; word-break: normal; }
        .detail img { max-width: 100%; max-height: 320px; border: 1px solid var(--line); background: #fff; }
        #errors { position: fixed; bottom: 0; left: 0; right: 0; background: var(--bad); color: #fff; padding: 8px; }
        """#

    static let script = #"""
        (function () {
          'use strict';
          var root = document.documentElement;
          var errors = [];
          function fail(what) {
            errors.push(String(what && what.stack ? what.stack : what));
            var box = document.getElementById('errors');
            if (box) { box.hidden = false; box.textContent = 'Report script errors: ' + errors.join(' | '); }
            root.setAttribute('data-errors', String(errors.length));
          }
          window.addEventListener('error', function (event) { fail(event.error || event.message); });
          window.addEventListener('unhandledrejection', function (event) { fail(event.reason); });
          try { main(); } catch (error) { fail(error); }
          root.setAttribute('data-errors', String(errors.length));
          root.setAttribute('data-ready', 'true');

          function main() {
            const data = JSON.parse(document.getElementById('nettap-data').textContent);
            const rows = data.rows, details = data.details;
            const byId = new Map(rows.map((row, index) => [row.id, index]));
            const ROW = 24;
            const $ = (id) => document.getElementById(id);
            const make = (tag, className, text) => {
              const node = document.createElement(tag);
              if (className) node.className = className;
              if (text !== undefined && text !== null) node.textContent = String(text);
              return node;
            };
            const defaults = { q: '', host: '', status: '', method: '', source: '', sort: 'start', dir: 'asc', id: '' };
            const state = Object.assign({}, defaults);
            const controls = { q: $('f-q'), host: $('f-host'), status: $('f-status'), method: $('f-method'),
              source: $('f-source') };
            const haystacks = rows.map((row) => [row.method, row.status || 'failed', row.url, row.source,
              row.error || '', row.graphql || ''].join(' ').toLowerCase());
            let view = [];

            const unique = (values) => Array.from(new Set(values)).sort();
            const addOptions = (select, values) => { for (const value of values) select.add(new Option(value, value)); };
            addOptions(controls.host, unique(rows.map((row) => row.host)));
            // The Host column is as wide as the longest host (up to 24 characters) when the row has room.
            const longestHost = rows.reduce((longest, row) => Math.max(longest, row.host.length), 4);
            document.documentElement.style.setProperty('--host-width', (Math.min(longestHost, 24) + 2) + 'ch');
            addOptions(controls.method, unique(rows.map((row) => row.method)));
            addOptions(controls.source, unique(rows.map((row) => row.source)));
            const classes = ['1xx', '2xx', '3xx', '4xx', '5xx'].filter((c) => rows.some((row) => String(row.status)[0] === c[0]));
            const codes = unique(rows.filter((row) => row.status > 0).map((row) => String(row.status)));
            addOptions(controls.status, classes.concat(rows.some((row) => row.status === 0) ? ['failed'] : [], codes));

            function readHash() {
              const params = new URLSearchParams(location.hash.replace(/^#/, ''));
              for (const key of Object.keys(defaults)) state[key] = params.get(key) || defaults[key];
            }
            function writeHash() {
              const params = new URLSearchParams();
              for (const key of Object.keys(defaults)) if (state[key] && state[key] !== defaults[key]) params.set(key, state[key]);
              const text = params.toString();
              history.replaceState(null, '', text ? '#' + text : location.pathname + location.search);
            }
            function syncControls() {
              for (const key of Object.keys(controls)) {
                const control = controls[key];
                if (control.tagName === 'SELECT' && state[key] && !Array.from(control.options).some((o) => o.value === state[key])) {
                  control.add(new Option(state[key], state[key]));
                }
                control.value = state[key];
              }
              for (const button of document.querySelectorAll('[data-sort]')) {
                if (button.dataset.sort === state.sort) button.setAttribute('aria-sort', state.dir === 'desc' ? 'descending' : 'ascending');
                else button.removeAttribute('aria-sort');
              }
            }

            function matches(row, index) {
              if (state.host && row.host !== state.host) return false;
              if (state.method && row.method !== state.method) return false;
              if (state.source && row.source !== state.source) return false;
              if (state.status) {
                const status = state.status.toLowerCase();
                if (status === 'failed') { if (row.status !== 0) return false; }
                else if (/^[1-5]xx$/.test(status)) { if (Math.floor(row.status / 100) !== Number(status[0])) return false; }
                else if (String(row.status) !== status) return false;
              }
              const query = state.q.trim().toLowerCase();
              return !query || haystacks[index].includes(query);
            }
            const sortKeys = {
              start: (row) => row.start, method: (row) => row.method, status: (row) => row.status,
              host: (row) => row.host, url: (row) => row.url, source: (row) => row.source,
              duration: (row) => (row.duration === undefined ? -1 : row.duration),
              size: (row) => row.bytesIn, findings: (row) => row.findings,
            };
            function apply() {
              view = [];
              for (let index = 0; index < rows.length; index++) if (matches(rows[index], index)) view.push(index);
              const key = sortKeys[state.sort] || sortKeys.start;
              const sign = state.dir === 'desc' ? -1 : 1;
              view.sort((a, b) => {
                const x = key(rows[a]), y = key(rows[b]);
                return (x < y ? -1 : x > y ? 1 : a - b) * sign;
              });
              const count = $('tx-count');
              count.textContent = view.length + ' of ' + rows.length + (rows.length === 1 ? ' transaction' : ' transactions');
              count.dataset.shown = String(view.length);
              count.dataset.total = String(rows.length);
              $('tx-rows').style.height = (view.length * ROW) + 'px';
              renderRows();
            }

            function formatBytes(count) {
              if (count < 1024) return count + ' B';
              if (count < 1048576) return (count / 1024).toFixed(1) + ' KiB';
              return (count / 1048576).toFixed(1) + ' MiB';
            }
            function formatLong(seconds) {
              const whole = Math.floor(seconds);
              if (whole < 3600) return Math.floor(whole / 60) + ' min ' + (whole % 60) + ' s';
              if (whole < 86400) return Math.floor(whole / 3600) + ' h ' + Math.floor(whole % 3600 / 60) + ' min';
              return Math.floor(whole / 86400) + ' d ' + Math.floor(whole % 86400 / 3600) + ' h';
            }
            function formatMilliseconds(value) {
              if (value === undefined || value === null) return '–';
              if (value >= 60000) return formatLong(value / 1000);
              return value >= 1000 ? (value / 1000).toFixed(2) + ' s' : value.toFixed(1) + ' ms';
            }
            // The start, relative to the first transaction: +0 ms, +850 ms, +12.35 s, +5 min 3 s, +117 d 12 h.
            function formatOffset(value) {
              if (value >= 60000) return '+' + formatLong(value / 1000);
              if (value >= 1000) return '+' + (value / 1000).toFixed(2) + ' s';
              return '+' + value.toFixed(value > 0 && value < 10 ? 1 : 0) + ' ms';
            }
            function pathOf(url) {
              try { const parsed = new URL(url); return parsed.pathname + parsed.search; } catch (error) { return url; }
            }

            function renderRows() {
              const viewport = $('tx-viewport');
              const height = viewport.clientHeight || 560;
              const first = Math.max(0, Math.floor(viewport.scrollTop / ROW) - 8);
              const last = Math.min(view.length, Math.ceil((viewport.scrollTop + height) / ROW) + 8);
              const fragment = document.createDocumentFragment();
              for (let position = first; position < last; position++) {
                const index = view[position];
                const row = rows[index];
                const line = make('div', 'tx-row');
                line.setAttribute('role', 'row');
                line.dataset.id = row.id;
                line.dataset.index = String(index);
                line.style.top = (position * ROW) + 'px';
                if (row.id === state.id) line.classList.add('selected');
                const statusClass = 'st-' + Math.floor(row.status / 100);
                line.append(
                  make('span', 'num', formatOffset(row.start - data.meta.origin)),
                  make('span', null, row.method),
                  make('span', statusClass, row.status || 'failed'),
                  make('span', null, row.host),
                  make('span', null, pathOf(row.url) + (row.graphql ? ' · ' + row.graphql : '')),
                  make('span', null, row.source),
                  make('span', 'num', formatMilliseconds(row.duration)),
                  make('span', 'num', formatBytes(row.bytesIn)),
                  make('span', null, row.findings ? String(row.findings) : ''));
                line.children[0].title = new Date(row.start).toISOString();
                line.children[3].title = row.host;
                line.children[4].title = row.url + (row.graphql ? ' (GraphQL ' + row.graphql + ')' : '');
                fragment.append(line);
              }
              $('tx-rows').replaceChildren(fragment);
            }

            function hexDump(base64) {
              const bytes = atob(base64 || '');
              const lines = [];
              for (let offset = 0; offset < bytes.length; offset += 16) {
                const chunk = bytes.slice(offset, offset + 16);
                let hex = '', text = '';
                for (let i = 0; i < 16; i++) {
                  if (i < chunk.length) {
                    const code = chunk.charCodeAt(i);
                    hex += code.toString(16).padStart(2, '0') + ' ';
                    text += code >= 32 && code < 127 ? chunk[i] : '.';
                  } else hex += '   ';
                  if (i === 7) hex += ' ';
                }
                lines.push(offset.toString(16).padStart(8, '0') + '  ' + hex + ' |' + text + '|');
              }
              return lines.join('\n');
            }
            function bodyView(body) {
              if (!body) return make('p', 'muted', '(no body)');
              const box = make('div', 'body');
              let note = formatBytes(body.size) + (body.mime ? ', ' + body.mime : '');
              if (body.kept < body.size) note += '; NetTap kept the first ' + formatBytes(body.kept);
              if (body.shown < body.kept) note += '; the report shows the first ' + formatBytes(body.shown);
              box.append(make('p', 'muted', note));
              if (body.kind === 'image' && /^image\/[a-z0-9.+-]+$/i.test(body.mime || '')) {
                const image = document.createElement('img');
                image.alt = 'image body';
                image.src = 'data:' + body.mime + ';base64,' + body.base64;
                box.append(image);
              } else if (body.kind === 'image' || body.kind === 'binary') {
                box.append(make('pre', 'hex', hexDump(body.base64)));
              } else if (body.kind === 'json') {
                let text = body.text;
                try { text = JSON.stringify(JSON.parse(body.text), null, 2); } catch (error) { /* not whole JSON: as text */ }
                box.append(make('pre', 'json', text));
              } else {
                box.append(make('pre', 'text', body.text));
              }
              return box;
            }
            function headerTable(headers) {
              if (!headers || headers.length === 0) return make('p', 'muted', '(none)');
              const table = make('table', 'headers');
              for (const field of headers) {
                const line = table.insertRow();
                line.insertCell().textContent = field[0];
                line.insertCell().textContent = field[1];
              }
              return table;
            }
            // What the transport saw on the wire: connection, protocol, phases, TLS session and certificate.
            function wireFacts(wire) {
              const list = make('dl', 'wire');
              const fact = (name, value) => {
                if (value === undefined || value === null || value === '') return;
                const term = make('dt', null, name);
                const description = make('dd', null, value);
                description.dataset.fact = name;
                list.append(term, description);
              };
              const date = (value) => (value === undefined ? undefined : new Date(value).toISOString());
              fact('Transport', wire.transport);
              fact('HTTP version', wire.httpVersion);
              fact('Remote', wire.remote);
              fact('Connection', wire.localPort === undefined ? undefined : 'local port ' + wire.localPort);
              fact('New or reused', wire.isNewConnection === undefined ? undefined : (wire.isNewConnection ? 'new' : 'reused'));
              fact('Phases', wire.phases);
              fact('TLS', wire.tlsProtocol);
              fact('Cipher', wire.cipher);
              fact('Certificate subject', wire.subject);
              fact('Certificate issuer', wire.issuer);
              const validity = [date(wire.validFrom), date(wire.validTo)];
              fact('Valid', validity[0] || validity[1] ? (validity[0] || '?') + ' to ' + (validity[1] || '?') : undefined);
              return list;
            }
            function showDetail() {
              const pane = $('detail');
              pane.replaceChildren();
              const index = state.id ? byId.get(state.id.toLowerCase()) : undefined;
              if (index === undefined) {
                pane.removeAttribute('data-id');
                pane.append(make('p', 'muted', state.id ? 'No transaction with id ' + state.id + '.'
                  : 'Select a transaction to see its headers, bodies and cURL command.'));
                return;
              }
              const row = rows[index], detail = details[index];
              pane.dataset.id = row.id;
              pane.append(make('h3', 'detail-title', row.method + ' ' + row.url));
              const facts = make('dl');
              const fact = (name, value) => {
                if (value === undefined || value === null || value === '') return;
                facts.append(make('dt', null, name), make('dd', null, value));
              };
              fact('Status', row.status ? row.status + (detail.httpVersion ? ' (' + detail.httpVersion + ')' : '') : 'no response');
              fact('State', row.state);
              fact('GraphQL', row.graphql);
              fact('Answered by', row.source);
              fact('Started', new Date(row.start).toISOString());
              fact('Request sent', row.sent === undefined ? undefined : formatMilliseconds(row.sent));
              fact('First byte', row.firstByte === undefined ? undefined : formatMilliseconds(row.firstByte));
              fact('Duration', formatMilliseconds(row.duration));
              fact('Bytes out / in', formatBytes(row.bytesOut) + ' / ' + formatBytes(row.bytesIn));
              fact('Error', row.error);
              fact('ID', row.id);
              for (const note of detail.notes) fact('Note: ' + note[0], note[1]);
              pane.append(facts);
              const part = (title, content, id) => {
                const heading = make('h4', null, title);
                pane.append(heading);
                if (id) content.id = id;
                pane.append(content);
              };
              if (detail.findings.length) {
                const list = make('ul', 'findings');
                for (const finding of detail.findings) {
                  list.append(make('li', 'sev-' + finding.severity, '[' + finding.severity + '] ' + finding.rule
                    + (finding.location ? ' at ' + finding.location : '') + ': ' + finding.message));
                }
                part('Findings', list);
              }
              if (detail.redirects.length) {
                const list = make('ol');
                for (const hop of detail.redirects) list.append(make('li', null, hop.status + ' ' + hop.method + ' ' + hop.url + ' (' + hop.source + ')'));
                part('Redirects', list);
              }
              if (detail.rewrite) {
                const list = make('dl');
                for (const [name, value] of detail.rewrite) list.append(make('dt', null, name), make('dd', null, value));
                part('Rewritten', list, 'detail-rewrite');
              }
              if (detail.wire) part('Wire', wireFacts(detail.wire), 'detail-wire');
              part('Request headers', headerTable(detail.requestHeaders), 'detail-request-headers');
              part('Request body', bodyView(detail.requestBody), 'detail-request-body');
              part('Response headers', detail.responseHeaders ? headerTable(detail.responseHeaders) : make('p', 'muted', '(no response)'), 'detail-response-headers');
              part('Response body', bodyView(detail.responseBody), 'detail-response-body');
              part('cURL', make('pre', 'curl', detail.curl), 'detail-curl');
            }
            function revealSelection() {
              const index = byId.get(state.id);
              const position = index === undefined ? -1 : view.indexOf(index);
              if (position < 0) return;
              const viewport = $('tx-viewport');
              const top = position * ROW;
              if (top < viewport.scrollTop || top + ROW > viewport.scrollTop + viewport.clientHeight) {
                viewport.scrollTop = Math.max(0, top - viewport.clientHeight / 2);
              }
            }

            function update(changes) {
              Object.assign(state, changes);
              writeHash();
              syncControls();
              apply();
              showDetail();
            }
            controls.q.addEventListener('input', () => update({ q: controls.q.value }));
            for (const key of ['host', 'status', 'method', 'source']) {
              controls[key].addEventListener('change', () => update({ [key]: controls[key].value }));
            }
            $('filters').addEventListener('submit', (event) => event.preventDefault());
            $('f-clear').addEventListener('click', () => update({ q: '', host: '', status: '', method: '', source: '' }));
            for (const button of document.querySelectorAll('[data-sort]')) {
              button.addEventListener('click', () => {
                const key = button.dataset.sort;
                update({ sort: key, dir: state.sort === key && state.dir === 'asc' ? 'desc' : 'asc' });
              });
            }
            $('tx-rows').addEventListener('click', (event) => {
              const line = event.target.closest('.tx-row');
              if (line) update({ id: line.dataset.id });
            });
            $('tx-viewport').addEventListener('keydown', (event) => {
              if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
              event.preventDefault();
              const position = view.indexOf(byId.get(state.id));
              const next = Math.min(view.length - 1, Math.max(0, position + (event.key === 'ArrowDown' ? 1 : -1)));
              if (view[next] !== undefined) { update({ id: rows[view[next]].id }); revealSelection(); renderRows(); }
            });
            let frame = 0;
            $('tx-viewport').addEventListener('scroll', () => {
              if (!frame) frame = requestAnimationFrame(() => { frame = 0; renderRows(); });
            });
            window.addEventListener('hashchange', () => {
              readHash(); syncControls(); apply(); showDetail(); revealSelection(); renderRows();
            });

            // The header leaves room for the viewport's scroll bar, so its columns line up with the rows'.
            function alignHead() {
              const viewport = $('tx-viewport');
              $('tx-head').style.paddingRight = Math.max(0, viewport.offsetWidth - viewport.clientWidth) + 'px';
            }
            // Which parts are wider than their box (none, at any width of 1280 px or more), and which hosts the
            // visible rows show cut: for tests.
            function checkOverflow() {
              const parts = { page: root, table: $('tx-table'), head: $('tx-head'),
                row: document.querySelector('.tx-row'), hosts: document.querySelector('#hosts .scroll') };
              const wide = Object.keys(parts).filter((key) => parts[key] && parts[key].scrollWidth > parts[key].clientWidth + 1);
              root.setAttribute('data-overflow', wide.join(' '));
              const cutHosts = Array.from(document.querySelectorAll('.tx-row')).filter((row) =>
                row.children[3].scrollWidth > row.children[3].clientWidth + 1).map((row) => row.children[3].textContent);
              root.setAttribute('data-cut-hosts', Array.from(new Set(cutHosts)).sort().join(' '));
            }
            window.addEventListener('resize', () => { alignHead(); renderRows(); checkOverflow(); });

            readHash();
            syncControls();
            apply();
            showDetail();
            revealSelection();
            renderRows();
            alignHead();
            checkOverflow();
          }
        })();
        """#
}
