import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { ServerStartError } from '../errors';
import { LineFramer, type Frame } from './lineFramer';
import { stopTree } from './processTree';
import { formatCommandLine, missingCommandHint, needsShell, pathEntries, quoteForCmd, resolveExecutable, type StdioLaunch } from './commandLine';

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const STDERR_TAIL_LINES = 20;
const MAX_STDERR_LINE = 4096;

export interface StdioTransportOptions {
  readonly maxMessageBytes?: number;
  /** Every stderr line, as it arrives (stderr is a log, never an error signal). */
  readonly onStderrLine?: (line: string) => void;
  /** Things worth a warning in the server's log: non-JSON stdout, dropped oversize messages. */
  readonly onWarning?: (message: string) => void;
}

/**
 * Our stdio transport (replacing the SDK's, see DESIGN.md "Protocol layer"): linear framing,
 * messages dispatched strictly in arrival order with a macrotask after each notification (so
 * the SDK's late-running notification handlers see progress before the result that follows),
 * a per-message cap that fails only the affected request, stderr always drained, and a
 * shutdown that reaches the whole process tree.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private _child: ChildProcess | undefined;
  private _exited: Promise<void> = Promise.resolve();
  private readonly _stderr = new PassThrough();
  private readonly _stderrTail: string[] = [];
  private readonly _queue: Frame[] = [];
  private _pumping = false;
  private _closed = false;
  private _exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(private readonly _launch: StdioLaunch, private readonly _options: StdioTransportOptions = {}) {}

  /** The process id; with `stderr` this marks us as a stdio transport to the SDK. */
  get pid(): number | null {
    return this._child?.pid ?? null;
  }

  get stderr(): Readable {
    return this._stderr;
  }

  /** The last stderr lines, for error messages. */
  get stderrTail(): readonly string[] {
    return this._stderrTail;
  }

  get exitInfo(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this._exit;
  }

  get commandLine(): string {
    return formatCommandLine(this._launch.command, this._launch.args);
  }

  async start(): Promise<void> {
    if (this._child) throw new Error('StdioTransport already started');
    const { command, args, env, cwd } = this._launch;
    const executable = resolveExecutable(command, env, cwd);
    if (!executable) {
      throw new ServerStartError(
        `Command "${command}" was not found. Searched PATH: ${pathEntries(env).join(process.platform === 'win32' ? ';' : ':') || '(empty)'}. ${missingCommandHint(command)}`,
      );
    }
    const shell = needsShell(executable);
    const child = spawn(shell ? `"${executable}"` : executable, shell ? args.map(quoteForCmd) : [...args], {
      cwd,
      env: { ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
      shell,
      windowsVerbatimArguments: shell,
    });
    this._child = child;
    this._exited = new Promise((resolve) => child.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (err) => reject(new ServerStartError(`Could not start "${command}": ${err.message}`, [], { cause: err })));
    });
    child.on('error', (err) => this.onerror?.(err));
    child.stdin!.on('error', () => undefined); // EPIPE after the server died: the exit handler reports it
    this._drainStderr(child);
    const framer = new LineFramer(this._options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    child.stdout!.on('data', (chunk: Buffer) => {
      this._queue.push(...framer.push(chunk));
      this._pump();
    });
    child.once('exit', (code, signal) => {
      this._exit = { code, signal };
    });
    child.once('close', () => this._finishWhenDrained());
  }

  /** Messages still queued (waiting on a notification's macrotask) are delivered before onclose. */
  private _finishWhenDrained(): void {
    if (this._queue.length === 0 && !this._pumping) this._finish();
    else setImmediate(() => this._finishWhenDrained());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this._child?.stdin;
    if (!stdin || this._closed || stdin.destroyed) throw new Error('Not connected: the server process is not running');
    const ok = stdin.write(JSON.stringify(message) + '\n');
    if (!ok) await new Promise<void>((resolve) => stdin.once('drain', resolve));
  }

  async close(): Promise<void> {
    const child = this._child;
    if (!child) return this._finish();
    if (child.exitCode === null && child.signalCode === null) {
      await stopTree(child, this._exited);
    } else {
      await stopTree(child, Promise.resolve()); // the leader is gone, its group may not be
    }
    this._finish();
  }

  private _finish(): void {
    if (this._closed) return;
    this._closed = true;
    this._stderr.end();
    this.onclose?.();
  }

  private _drainStderr(child: ChildProcess): void {
    let partial = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      this._stderr.write(text);
      const lines = (partial + text).split(/\r?\n/);
      partial = lines.pop() ?? '';
      if (partial.length > MAX_STDERR_LINE) {
        lines.push(partial);
        partial = '';
      }
      for (const line of lines) this._stderrLine(line);
    });
    child.stderr!.on('end', () => partial && this._stderrLine(partial));
    this._stderr.resume(); // nobody has to read our copy for the pipe to keep flowing
  }

  private _stderrLine(line: string): void {
    const clipped = line.length > MAX_STDERR_LINE ? line.slice(0, MAX_STDERR_LINE) + ` … (${line.length} chars)` : line;
    this._stderrTail.push(clipped);
    if (this._stderrTail.length > STDERR_TAIL_LINES) this._stderrTail.shift();
    this._options.onStderrLine?.(clipped);
  }

  /** Delivers queued frames in order; after a notification, the rest waits one macrotask. */
  private _pump(): void {
    if (this._pumping) return;
    this._pumping = true;
    try {
      while (this._queue.length > 0) {
        const frame = this._queue.shift()!;
        const delivered = this._deliver(frame);
        if (delivered === 'notification' && this._queue.length > 0) {
          setImmediate(() => {
            this._pumping = false;
            this._pump();
          });
          return;
        }
      }
    } finally {
      if (this._queue.length === 0) this._pumping = false;
    }
  }

  private _deliver(frame: Frame): 'notification' | 'other' {
    if (frame.kind === 'oversize') {
      this._failOversize(frame);
      return 'other';
    }
    const text = frame.text.trim();
    if (!text) return 'other';
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this._options.onWarning?.(`Ignored a stdout line that is not JSON-RPC: ${text.slice(0, 200)}`);
      return 'other';
    }
    if (!isJsonRpc(message)) {
      this._options.onWarning?.(`Ignored a stdout line that is not JSON-RPC: ${text.slice(0, 200)}`);
      return 'other';
    }
    try {
      this.onmessage?.(message);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
    return 'method' in message && !('id' in message) ? 'notification' : 'other';
  }

  /** Turns a dropped response into an error for its request alone; the session goes on. */
  private _failOversize(frame: Extract<Frame, { kind: 'oversize' }>): void {
    const limit = this._options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    const what = `A message of ${mib(frame.bytes)} exceeded the ${mib(limit)} limit and was dropped (raise the setting mcpToolHost.maxMessageMiB to accept it).`;
    this._options.onWarning?.(what);
    const id = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(frame.head)?.[1];
    if (id === undefined || /"method"\s*:/.test(frame.head.slice(0, frame.head.indexOf('"id"')))) return;
    const error: JSONRPCMessage = { jsonrpc: '2.0', id: JSON.parse(id) as string | number, error: { code: -32000, message: what } };
    this.onmessage?.(error);
  }
}

function isJsonRpc(value: unknown): value is JSONRPCMessage {
  return typeof value === 'object' && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}
