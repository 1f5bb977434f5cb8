// The bar chart tool's interface (MCP Apps, docs/mcp-apps.md): one self-contained HTML page, no
// network, served as `ui://demo/bar-chart.html`. It speaks the protocol by hand (a few JSON-RPC
// messages over postMessage) so the demo server stays one small offline file.

export const BAR_CHART_APP_URI = 'ui://demo/bar-chart.html';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

export const BAR_CHART_APP_HTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Bar Chart</title>
<style>
  body { margin: 0; padding: 12px; font-family: var(--font-sans, system-ui, sans-serif); color: var(--color-text-primary, #222); background: var(--color-background-primary, transparent); }
  #bars { display: flex; align-items: flex-end; gap: 4px; height: 180px; border-bottom: 1px solid var(--color-border-primary, #888); }
  .bar { flex: 1; background: var(--color-ring-primary, #3b82f6); min-height: 1px; position: relative; }
  .bar span { position: absolute; top: -1.3em; width: 100%; text-align: center; font-size: 11px; }
  #status { margin-top: 8px; color: var(--color-text-secondary, #666); font-size: 12px; }
</style></head>
<body><h3 id="title">Bar chart</h3><div id="bars"></div><div id="status">Waiting for the values...</div>
<script>
(() => {
  let nextId = 1;
  const send = (m) => window.parent.postMessage(Object.assign({ jsonrpc: '2.0' }, m), '*');
  const status = (t) => { document.getElementById('status').textContent = t; };
  const draw = (values) => {
    const bars = document.getElementById('bars');
    bars.textContent = '';
    const max = Math.max(1, ...values);
    for (const v of values) {
      const bar = document.createElement('div');
      bar.className = 'bar';
      bar.style.height = (100 * v / max) + '%';
      const label = document.createElement('span');
      label.textContent = String(v);
      bar.appendChild(label);
      bars.appendChild(bar);
    }
  };
  const applyTheme = (ctx) => {
    const vars = ctx && ctx.styles && ctx.styles.variables;
    if (vars) for (const [k, v] of Object.entries(vars)) if (k.startsWith('--') && typeof v === 'string') document.documentElement.style.setProperty(k, v);
  };
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const m = event.data;
    if (!m || m.jsonrpc !== '2.0') return;
    if (m.id === 1 && m.result) {
      applyTheme(m.result.hostContext);
      send({ method: 'ui/notifications/initialized', params: {} });
    } else if (m.method === 'ui/notifications/tool-input') {
      const values = m.params && m.params.arguments && m.params.arguments.values;
      if (Array.isArray(values)) { draw(values.filter((v) => typeof v === 'number')); status('Drawing ' + values.length + ' values...'); }
    } else if (m.method === 'ui/notifications/tool-result') {
      const r = m.params || {};
      const text = (r.content || []).find((c) => c.type === 'text');
      status(r.isError ? 'The server said: ' + (text ? text.text : 'error') : 'The server drew it too: ' + (text ? text.text : 'done'));
    } else if (m.method === 'ui/notifications/tool-cancelled') {
      status('The call did not run.');
    } else if (m.method === 'ui/resource-teardown' && m.id !== undefined) {
      send({ id: m.id, result: {} });
    } else if (m.id !== undefined && m.method) {
      send({ id: m.id, error: { code: -32601, message: 'not supported' } });
    }
  });
  send({ id: nextId++, method: 'ui/initialize', params: { protocolVersion: '2026-01-26', appInfo: { name: 'demo-bar-chart', version: '0.1.0' }, appCapabilities: {} } });
})();
</script></body></html>`;
