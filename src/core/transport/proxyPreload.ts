// Loaded with `--require` (NODE_OPTIONS) into every Node process of a sandboxed server that may
// reach the network: the sandbox gives it network only through its proxy (HTTP_PROXY,
// HTTPS_PROXY), which Node ignores unless told. Node 24.0+ and 22.21+ honour NODE_USE_ENV_PROXY=1
// for fetch() (also set by transport/sandbox.ts), 24.5+ and 22.21+ for http and https too; for
// what the running Node does not honour, this routes fetch() (undici's global dispatcher, which
// Node's fetch and the npm `undici` package share) and the default http/https agents through the
// proxy with CONNECT. Standalone: Node's own modules only, nothing of ours and nothing of the
// server's node_modules (it is built to dist/proxyPreload.js by esbuild.mjs).
// `import = require`: the default agents are replaced on the modules themselves (an ES namespace is a read-only copy).
// eslint-disable-next-line @typescript-eslint/no-require-imports
import http = require('node:http');
// eslint-disable-next-line @typescript-eslint/no-require-imports
import https = require('node:https');
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';

type Callback = (err: Error | null, socket?: net.Socket) => void;

/** How long the proxy may take to answer a CONNECT. */
const CONNECT_TIMEOUT_MS = 15_000;
/** The most of a CONNECT answer's head we read. */
const MAX_HEAD_BYTES = 16 * 1024;

const proxyUrl = parseProxy(process.env.HTTPS_PROXY || process.env.https_proxy || process.env.HTTP_PROXY || process.env.http_proxy);

if (proxyUrl) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  const envProxy = process.env.NODE_USE_ENV_PROXY === '1';
  // What this Node does itself under NODE_USE_ENV_PROXY=1 (its changelog: fetch 24.0.0, http 24.5.0; both 22.21.0).
  const nativeFetch = envProxy && (major >= 24 || (major === 22 && minor >= 21));
  const nativeHttp = envProxy && (major > 24 || (major === 24 && minor >= 5) || (major === 22 && minor >= 21));
  if (!nativeFetch) installFetchDispatcher(proxyUrl);
  if (!nativeHttp) installAgents(proxyUrl);
}

function parseProxy(raw: string | undefined): URL | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Whether NO_PROXY sends `host` direct: an exact name or address, a domain suffix, an IPv4 range. */
function bypassed(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  for (const raw of (process.env.NO_PROXY || process.env.no_proxy || '').split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    if (entry.includes('/')) {
      const [base, bits] = entry.split('/');
      if (net.isIPv4(bare) && net.isIPv4(base)) {
        const list = new net.BlockList();
        list.addSubnet(base, Number(bits), 'ipv4');
        if (list.check(bare, 'ipv4')) return true;
      }
      continue;
    }
    const name = entry.replace(/^\*?\./, '');
    if (bare === name || bare.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** A tunnel to host:port through the proxy (HTTP CONNECT, with the proxy URL's credentials). */
function tunnel(proxy: URL, host: string, port: number, done: Callback): void {
  const socket = net.connect({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port) || 80 });
  const authority = `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
  const auth = proxy.username ? `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n` : '';
  let head = Buffer.alloc(0);
  let settled = false;
  const finish = (err: Error | null) => {
    if (settled) return;
    settled = true;
    socket.setTimeout(0);
    socket.removeListener('data', onData);
    if (err) {
      socket.destroy();
      done(err);
    } else done(null, socket);
  };
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) {
      if (head.length > MAX_HEAD_BYTES) finish(refused(authority, 'an answer too long to read'));
      return;
    }
    const status = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
    const rest = head.subarray(end + 4);
    if (!/^HTTP\/1\.[01] 200\b/.test(status)) return finish(refused(authority, status.replace(/^HTTP\/1\.[01] /, '') || 'no status'));
    if (rest.length) socket.unshift(rest);
    finish(null);
  };
  socket.on('data', onData);
  socket.once('error', (err) => finish(err));
  socket.once('close', () => finish(refused(authority, 'the proxy closed the connection')));
  socket.setTimeout(CONNECT_TIMEOUT_MS, () => finish(refused(authority, `no answer in ${CONNECT_TIMEOUT_MS / 1000} s`)));
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
}

function refused(authority: string, why: string): Error {
  return Object.assign(new Error(`The sandbox's network proxy refused ${authority} (${why}): it is not among the server's allowed domains.`), { code: 'ESANDBOXPROXY' });
}

/** The tunnel, with TLS on top for https. */
function connectThrough(proxy: URL, options: { host: string; port: number; tls: boolean; servername?: string; tlsOptions?: tls.ConnectionOptions }, done: Callback): void {
  tunnel(proxy, options.host, options.port, (err, raw) => {
    if (err || !raw) return done(err ?? new Error('no tunnel'));
    if (!options.tls) return done(null, raw);
    const secure = tls.connect({ ...options.tlsOptions, socket: raw, servername: options.servername ?? (net.isIP(options.host) ? undefined : options.host) });
    const onError = (e: Error) => done(e);
    secure.once('error', onError);
    secure.once('secureConnect', () => {
      secure.removeListener('error', onError);
      done(null, secure);
    });
  });
}

/**
 * fetch(): an undici Agent of the running Node's own undici (its class, reached through the
 * dispatcher it creates when it loads) whose connector tunnels through the proxy.
 */
function installFetchDispatcher(proxy: URL): void {
  const key = Symbol.for('undici.globalDispatcher.1');
  const g = globalThis as unknown as Record<symbol, unknown> & { Headers?: unknown };
  void g.Headers; // loads Node's undici, which sets its default dispatcher (an Agent)
  const current = g[key] as { constructor: new (options: object) => unknown } | undefined;
  if (!current) return;
  type ConnectOptions = { hostname: string; port: string | number; protocol: string; servername?: string };
  // Its connector tunnels every connection but those NO_PROXY sends direct.
  const dispatcher = new current.constructor({
    connect: (opts: ConnectOptions, done: Callback) => {
      const secure = opts.protocol === 'https:';
      const port = Number(opts.port) || (secure ? 443 : 80);
      const servername = opts.servername || (net.isIP(opts.hostname) ? undefined : opts.hostname);
      if (bypassed(opts.hostname)) {
        const socket = secure ? tls.connect({ host: opts.hostname, port, servername, ALPNProtocols: ['http/1.1'] }) : net.connect({ host: opts.hostname, port });
        const onError = (err: Error) => done(err);
        socket.once('error', onError);
        socket.once(secure ? 'secureConnect' : 'connect', () => {
          socket.removeListener('error', onError);
          done(null, socket);
        });
        return;
      }
      connectThrough(proxy, { host: opts.hostname, port, tls: secure, servername, tlsOptions: secure ? { ALPNProtocols: ['http/1.1'] } : undefined }, done);
    },
  });
  g[key] = dispatcher;
}

/** http and https: the default agents open their connections through the tunnel (NO_PROXY hosts direct). */
function installAgents(proxy: URL): void {
  // On an error there is no socket; the agent reads the first argument first.
  type AgentCallback = (err: Error | null, stream: Duplex) => void;
  type Options = { host?: string; hostname?: string; port?: number | string; servername?: string } & tls.ConnectionOptions;
  class TunnelAgent extends http.Agent {
    override createConnection(options: Options, done?: AgentCallback): net.Socket | undefined {
      const host = options.hostname || options.host || 'localhost';
      if (bypassed(host)) return net.connect(options as net.NetConnectOpts);
      connectThrough(proxy, { host, port: Number(options.port) || 80, tls: false }, (err, socket) => done?.(err, socket as net.Socket));
      return undefined;
    }
  }
  class TunnelTlsAgent extends https.Agent {
    override createConnection(options: Options, done?: AgentCallback): net.Socket | undefined {
      const host = options.hostname || options.host || 'localhost';
      if (bypassed(host)) return tls.connect(options as tls.ConnectionOptions);
      connectThrough(proxy, { host, port: Number(options.port) || 443, tls: true, servername: options.servername, tlsOptions: options }, (err, socket) => done?.(err, socket as net.Socket));
      return undefined;
    }
  }
  Object.assign(http, { globalAgent: new TunnelAgent({ keepAlive: true }) });
  Object.assign(https, { globalAgent: new TunnelTlsAgent({ keepAlive: true }) });
}
