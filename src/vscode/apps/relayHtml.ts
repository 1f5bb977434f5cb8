import type { AppDocument } from '../../core/apps/appResource';

/** A message bigger than this (characters of JSON) from the frame is not relayed. */
const MAX_RELAY_CHARS = 1024 * 1024;
/** Messages a second the relay passes on; the host drops past its own limit too (appBridge.ts). */
const MAX_RELAY_PER_SECOND = 60;
/** The host's theme, as MCP Apps style variables from VS Code's own (read in the webview). */
const STYLE_VARIABLES: Record<string, string> = {
  '--color-background-primary': '--vscode-editor-background',
  '--color-background-secondary': '--vscode-sideBar-background',
  '--color-text-primary': '--vscode-editor-foreground',
  '--color-text-secondary': '--vscode-descriptionForeground',
  '--color-border-primary': '--vscode-panel-border',
  '--color-ring-primary': '--vscode-focusBorder',
  '--color-text-danger': '--vscode-errorForeground',
  '--font-sans': '--vscode-font-family',
  '--font-mono': '--vscode-editor-font-family',
  '--font-text-md-size': '--vscode-font-size',
};

/**
 * The webview's page: our relay script and the app in an iframe sandboxed to scripts only (an
 * opaque origin: no access to this page, `acquireVsCodeApi`, storage, popups, top navigation,
 * modals or forms). The page and the frame run under the app's declared CSP (the frame inherits
 * this page's policy as a srcdoc document, and gets it as a <meta> too).
 */
export function relayHtml(doc: AppDocument): string {
  const policy = escapeAttribute(doc.policy);
  const frameMeta = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
  const framed = /<head[^>]*>/i.test(doc.html) ? doc.html.replace(/<head[^>]*>/i, (head) => head + frameMeta) : frameMeta + doc.html;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy}">
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block;background:transparent}</style>
</head><body><iframe id="app" sandbox="allow-scripts" srcdoc="${escapeAttribute(framed)}"></iframe>
<script>(() => {
  const vscode = acquireVsCodeApi();
  const frame = document.getElementById('app');
  let start = 0, count = 0;
  const said = new Set();
  const drop = (why) => { if (!said.has(why)) { said.add(why); vscode.postMessage({ from: 'relay', dropped: why }); } };
  window.addEventListener('message', (event) => {
    if (event.source === frame.contentWindow) {
      const now = Date.now();
      if (now - start >= 1000) { start = now; count = 0; }
      if (++count > ${MAX_RELAY_PER_SECOND}) return drop('more than ${MAX_RELAY_PER_SECOND} messages a second');
      let size = 0;
      try { size = JSON.stringify(event.data).length; } catch { return drop('a message that cannot be serialised'); }
      if (size > ${MAX_RELAY_CHARS}) return drop('a message over ${MAX_RELAY_CHARS / 1024} KiB');
      vscode.postMessage({ from: 'app', message: event.data });
    } else if (event.data && event.data.to === 'app' && frame.contentWindow) {
      frame.contentWindow.postMessage(event.data.message, '*');
    }
  });
  const style = getComputedStyle(document.documentElement);
  const names = ${JSON.stringify(STYLE_VARIABLES)};
  const variables = {};
  for (const [app, ours] of Object.entries(names)) { const v = style.getPropertyValue(ours).trim(); if (v) variables[app] = v; }
  vscode.postMessage({ from: 'relay', variables });
})();</script></body></html>`;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
