/// The report's page around the results: its stylesheet and its one script, both inline (the
/// report is one file that works offline: no external asset, no CDN), and both allowed by the
/// page's Content-Security-Policy through a nonce of the report's own. Nothing else may run or
/// load: `default-src 'none'` refuses every fetch (an `<img>` a server slipped in loads
/// nothing), and a script without the nonce, inline handlers (`onerror=`) included, is
/// blocked. Escaping keeps a server's markup out of the page in the first place; the policy is
/// the second wall, should a value ever get past the first.
enum HTMLPage {
    /// The policy for a page whose own `<style>` and `<script>` carry `nonce`.
    static func contentSecurityPolicy(nonce: String) -> String {
        "default-src 'none'; style-src 'nonce-\(nonce)'; script-src 'nonce-\(nonce)'; base-uri 'none'; form-action 'none'"
    }

    /// A fresh nonce: 128 random bits, hex.
    static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// `content-visibility: auto` on each scenario: the browser lays out and paints only the
    /// scenarios near the viewport. Without it Chromium took 31 s to show a 10,000-result page
    /// and over two minutes for 40,000 (its layout work grew faster than the page); with it,
    /// 2.6 s and 11 s.
    static let stylesheet: StaticString = """
        :root{--pass:#1a7f37;--fail:#cf222e;--error:#8250df;--skip:#6e7781;--flaky:#bf8700;--line:#d0d7de;--soft:#f6f8fa;--pick:#0969da}
        body{font:14px/1.45 system-ui,sans-serif;color:#1f2328;max-width:1280px;margin:0 auto;padding:0 16px 48px}
        h1{font-size:22px;margin:16px 0 4px}h2{font-size:18px;margin:28px 0 4px;border-bottom:1px solid var(--line)}
        h2 small,.run{color:#59636e;font-weight:normal;font-size:13px}h3{font-size:15px;margin:18px 0 4px}
        .summary{display:flex;flex-wrap:wrap;gap:10px;list-style:none;padding:0;margin:10px 0}
        .summary li{background:var(--soft);border-left:5px solid var(--line);border-radius:4px;padding:4px 14px}
        .summary b{display:block;font-size:22px}.summary .passed{border-color:var(--pass)}
        .summary .failed{border-color:var(--fail)}.summary .error{border-color:var(--error)}
        .summary .skipped{border-color:var(--skip)}.summary .flaky{border-color:var(--flaky)}
        form{display:flex;flex-wrap:wrap;gap:16px;align-items:center;margin:8px 0}fieldset{border:0;padding:0;margin:0}
        legend{float:left;margin-right:8px;color:#59636e}output{color:#59636e}.legend{color:#59636e;font-size:12px}
        .legend span{display:inline-block;padding:0 6px;border-radius:3px;color:#fff}
        table.matrix{border-collapse:collapse;margin:4px 0 8px;font-size:12px}
        .matrix th,.matrix td{border:1px solid var(--line);padding:2px 6px}.matrix thead th{background:var(--soft)}
        .matrix tbody th{text-align:left;font-family:ui-monospace,monospace;font-weight:normal}
        .matrix td{min-width:84px;text-align:center}.matrix td.none{background:var(--soft)}
        a.cell{display:block;margin:1px 0;border-radius:3px;color:#fff;font-weight:600;text-decoration:none}
        a.cell.passed{background:var(--pass)}a.cell.failed{background:var(--fail)}a.cell.error{background:var(--error)}
        a.cell.skipped{background:var(--skip)}a.cell.flaky{background:var(--flaky)}a.cell.dim{opacity:.2}
        a.cell.pick{box-shadow:inset 0 0 0 2px var(--pick)}.matrix th.pick{font-weight:700}
        details.result{background:var(--soft);border-left:5px solid var(--line);border-radius:3px;margin:3px 0;padding:2px 10px}
        details.passed{border-color:var(--pass)}details.failed{border-color:var(--fail)}details.error{border-color:var(--error)}
        details.skipped{border-color:var(--skip)}details.flaky{border-color:var(--flaky)}
        summary{cursor:pointer}.badge{font:700 12px ui-monospace,monospace}.passed .badge{color:var(--pass)}
        .failed .badge{color:var(--fail)}.error .badge{color:var(--error)}.skipped .badge{color:var(--skip)}
        .where,.ms,.after{color:#59636e}.tag-flaky,.tag-retained{color:var(--flaky);font-weight:700}.tag-pick,.pick-mark{color:var(--pick);font-weight:700}.tag-insecure,.insecure{color:var(--fail);font-weight:700}
        .foreign{color:var(--fail);font-weight:700}mark.foreign{background:#ffebe9;padding:0 .2em}.dns-unchecked{color:#59636e}
        svg.phases{width:180px;height:10px;margin-left:8px;vertical-align:middle;background:#eaeef2}
        .p0{fill:#218bff;background:#218bff}.p1{fill:#2da44e;background:#2da44e}.p2{fill:#d4a72c;background:#d4a72c}
        .p3{fill:#e16f24;background:#e16f24}.p4{fill:#8c959f;background:#8c959f}
        .body{padding:4px 0 8px}dl{display:grid;grid-template-columns:max-content 1fr;gap:0 12px;margin:4px 0}
        dt{color:#59636e}dd{margin:0;font-family:ui-monospace,monospace;font-size:12px;overflow-wrap:anywhere}
        .hop{border-top:1px dashed var(--line);margin-top:6px}h4{margin:6px 0 2px;font-size:13px;overflow-wrap:anywhere}
        code{background:#fff;padding:0 3px;overflow-wrap:anywhere}code.curl{display:block;white-space:pre-wrap;user-select:all}p.error>b{color:var(--error)}.diagnosis{font-style:italic}
        [hidden]{display:none!important}section.scenario{content-visibility:auto;contain-intrinsic-size:auto 160px}
        """

    /// The filters: status checkboxes and a tag list, mirrored in the URL fragment
    /// (`#status=failed,error&tag=https`, a link that opens the report filtered, and `&open=r0-3-1`
    /// unfolds a result there); a matrix cell's link (`#r0-3-1`) unfolds its result. It reads and writes classes, attributes and
    /// `textContent` only: nothing of the results is ever parsed as markup.
    static let script: StaticString = """
        (function () {
          var doc = document, form = doc.getElementById('filters'), shown = doc.getElementById('shown');
          var results = doc.querySelectorAll('details.result'), scenarios = doc.querySelectorAll('section.scenario');
          var cells = doc.querySelectorAll('a.cell'), boxes = form.querySelectorAll('input[name=status]');
          var select = form.elements.tag;
          function apply() {
            var statuses = {}, tag = select.value, visible = {}, count = 0;
            boxes.forEach(function (box) { if (box.checked) statuses[box.value] = true; });
            results.forEach(function (result) {
              var match = statuses[result.dataset.status] === true
                && (tag === '' || (' ' + result.dataset.tags + ' ').indexOf(' ' + tag + ' ') >= 0);
              result.hidden = !match;
              if (match) { visible[result.id] = true; count++; }
            });
            scenarios.forEach(function (scenario) {
              scenario.hidden = scenario.querySelector('details.result:not([hidden])') === null;
            });
            cells.forEach(function (cell) { cell.classList.toggle('dim', visible[cell.dataset.result] !== true); });
            shown.textContent = count + ' of ' + results.length + ' results shown';
          }
          function reset() {
            boxes.forEach(function (box) { box.checked = true; });
            select.value = '';
          }
          function readFragment() {
            var fragment = location.hash.slice(1);
            if (fragment.indexOf('=') < 0) return false;
            var params = new URLSearchParams(fragment), wanted = (params.get('status') || '').split(',');
            reset();
            if (params.has('status')) boxes.forEach(function (box) { box.checked = wanted.indexOf(box.value) >= 0; });
            for (var index = 0; index < select.options.length; index++) {
              if (select.options[index].value !== '' && select.options[index].text === params.get('tag')) {
                select.value = select.options[index].value;
              }
            }
            var opened = params.get('open') === null ? null : doc.getElementById(params.get('open'));
            if (opened !== null && opened.matches('details.result')) opened.open = true;
            return true;
          }
          function writeFragment() {
            var statuses = [], params = new URLSearchParams();
            boxes.forEach(function (box) { if (box.checked) statuses.push(box.value); });
            if (statuses.length < boxes.length) params.set('status', statuses.join(','));
            if (select.value !== '') params.set('tag', select.options[select.selectedIndex].text);
            var fragment = params.toString();
            try { history.replaceState(null, '', fragment === '' ? location.pathname : '#' + fragment); } catch (error) {}
          }
          function reveal() {
            var target = doc.getElementById(location.hash.slice(1));
            if (target === null || !target.matches('details.result')) return;
            if (target.hidden) { reset(); apply(); }
            target.open = true;
          }
          form.addEventListener('change', function () { apply(); writeFragment(); });
          window.addEventListener('hashchange', function () { if (readFragment()) apply(); else reveal(); });
          readFragment();
          apply();
          reveal();
          doc.documentElement.setAttribute('data-filters', 'ready');
        })();
        """
}
