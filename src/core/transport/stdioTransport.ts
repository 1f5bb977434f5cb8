import * as fs from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { ServerStartError } from '../errors';
import { setInPieces } from '../textPieces';
import { loadTransport } from './load';
import type { Frame } from './lineFramer';
import type { MessagePump, Queued } from './messagePump';
import type { OffThreadJsonParser, StreamingJson } from './offThreadJson';
import type { SandboxFence, SandboxSettings } from './sandbox';
import { formatCommandLine, missingCommandHint, pathEntries, resolveExecutable, type StdioLaunch } from './commandLine';
import { SERVER_MARKER_VARIABLE, spawnServer, spawnStopWatcher, type EarlyServer } from './serverSpawn';
import { turnWrites, type TurnWrites } from './turnWrites';

/** What `send` returns once the line is written or buffered: shared, it never changes. */
const SENT: Promise<void> = Promise.resolve();

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/**
 * Messages this large are decoded and parsed on a worker thread as they stream in: inline,
 * joining, decoding and parsing cost ~3 ms of main-thread time per MiB here, too long for a 50 MiB
 * result (the event loop is never blocked for more than 50 ms: ARCHITECTURE.md "Limits"); below this size inline
 * stays under ~40 ms and as fast as a raw client (the worker's copies add ~1.5 ms per MiB).
 */
export const OFF_THREAD_BYTES = 16 * 1024 * 1024;
const STDERR_TAIL_LINES = 20;
const MAX_STDERR_LINE = 4096;

export interface StdioTransportOptions {
  readonly maxMessageBytes?: number;
  /** Every stderr line, as it arrives (stderr is a log, never an error signal). */
  readonly onStderrLine?: (line: string) => void;
  /** Things worth a warning in the server's log: non-JSON stdout, dropped oversize messages. */
  readonly onWarning?: (message: string) => void;
  /** Messages of at least this many bytes are parsed off the main thread (default OFF_THREAD_BYTES). */
  readonly offThreadBytes?: number;
  /** Run the server in this sandbox (transport/sandbox.ts); a machine that cannot sandbox fails the start, unless it allows running unsandboxed. */
  readonly sandbox?: SandboxSettings;
  /**
   * Stopping hands the shutdown sequence to a detached process and returns at once (the CLI: a
   * command exits when its answer is out, not when the server has gone). POSIX only.
   */
  readonly stopDetached?: boolean;
  /** The process came to be (Run Doctor's "spawned": not when the command was missing or the sandbox refused it). */
  readonly onSpawn?: () => void;
  /**
   * A server already spawned for exactly this launch (the CLI spawns it while its commands load),
   * given the launch about to run (its executable resolved); undefined: spawn it here. Never for a
   * sandboxed launch. The one who spawned it ends it when it does not match.
   */
  readonly adoptEarly?: (launch: StdioLaunch) => EarlyServer | undefined;
}

/**
 * Our stdio transport (replacing the SDK's, whose buffer re-scans on every chunk, drops the
 * session on one large message, and delivers a result before the progress before it): linear framing,
 * messages dispatched strictly in arrival order with a macrotask after each notification (so
 * the SDK's late-running notification handlers see progress before the result that follows),
 * a per-message cap that fails only the affected request, stderr always drained, and a
 * shutdown that reaches the whole process tree. Writes issued in one tick leave in one system
 * call, and very large messages are parsed on a worker thread (throughput, and an
 * event loop never blocked for long).
 */
export class StdioTransport implements Transport {
  /** This server's value of SERVER_MARKER_VARIABLE, inherited by all its descendants. */
  private _marker: string = randomUUID();
  /** Set by close(): the stop sequence is ours, not a clean-up after the server exited on its own. */
  private _stopping = false;
  /** The clean-up after the server exited on its own (its leftover descendants), awaited by close(). */
  private _leftovers: Promise<void> | undefined;
  private get _markerEntry(): string {
    return `${SERVER_MARKER_VARIABLE}=${this._marker}`;
  }
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** True from a handler that took the message in full at once (rawAnswers.ts): see MessagePump. */
  onmessage?: <T extends JSONRPCMessage>(message: T) => boolean | void;

  private _child: ChildProcess | undefined;
  private _exited: Promise<void> = Promise.resolve();
  private readonly _stderr = new PassThrough();
  private readonly _stderrTail: string[] = [];
  private _pump: MessagePump | undefined;
  private _closed = false;
  /** Writes to the server's stdin (made with the first send: the process exists by then). */
  private _writes: TurnWrites | undefined;
  private _drained: Promise<void> | undefined;
  private _parser: OffThreadJsonParser | undefined;
  /** The large message streaming in right now, if any. */
  private _large: StreamingJson | undefined;
  private _exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private _releaseSandbox: (() => void) | undefined;
  private _fence: SandboxFence | undefined;
  private _closing: Promise<void> | undefined;
  private _sentAny = false;
  private _exitedAfterInput = false;
  private _output: (() => void) | undefined;
  /** Settles at the server's first output, any bytes on stdout or stderr (a message, a banner, a log line). */
  readonly firstOutput = new Promise<void>((resolve) => (this._output = resolve));

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

  /** The server exited after it was sent something (not before it read anything: a crash at its start). */
  get exitedAfterInput(): boolean {
    return this._exitedAfterInput;
  }

  get commandLine(): string {
    return formatCommandLine(this._launch.command, this._launch.args);
  }

  async start(): Promise<void> {
    if (this._child) throw new Error('StdioTransport already started');
    const { command, args, env, cwd } = this._launch;
    // A missing folder makes spawn fail with ENOENT for the command, which would blame the command.
    if (cwd !== undefined && !isFolder(cwd)) throw new ServerStartError(`Could not start "${command}": no folder "${cwd}" (cwd).`);
    if (command === '') throw new ServerStartError('Could not start the server: "command" is empty (an unset variable?).');
    const executable = resolveExecutable(command, env, cwd);
    if (!executable) {
      throw new ServerStartError(
        `Command "${command}" was not found. Searched PATH: ${pathEntries(env).join(process.platform === 'win32' ? ';' : ':') || '(empty)'}. ${missingCommandHint(command)}`,
      );
    }
    const early = this._options.sandbox ? undefined : this._options.adoptEarly?.({ command: executable, args, env, cwd });
    const spawned = this._options.sandbox ? await this._sandboxed({ command: executable, args, env, cwd }, this._options.sandbox) : { command: executable, args, env };
    if (early) this._marker = early.marker;
    const child = early?.child ?? spawnServer({ ...spawned, cwd }, this._marker);
    this._child = child;
    this._exited = early?.closed ? Promise.resolve() : new Promise((resolve) => child.once('close', () => resolve()));
    const started = early?.spawned ?? new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    await started.catch((err: Error) => {
      this._releaseSandbox?.();
      throw new ServerStartError(`Could not start "${command}": ${err.message}`, [], { cause: err });
    });
    this._options.onSpawn?.();
    child.on('error', (err) => this.onerror?.(err));
    child.stdin!.on('error', () => undefined); // EPIPE after the server died: the exit handler reports it
    this._drainStderr(child);
    const maxMessageBytes = this._options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const framer = new (loadTransport().LineFramer)(maxMessageBytes, this._options.offThreadBytes ?? OFF_THREAD_BYTES);
    const pump = (this._pump = new (loadTransport().MessagePump)(
      {
        message: (message) => this.onmessage?.(message),
        warning: (text) => this._options.onWarning?.(text),
        error: (err) => this.onerror?.(err),
      },
      maxMessageBytes,
    ));
    child.stdout!.once('data', () => this._output?.());
    child.stdout!.on('data', (chunk: Buffer) => {
      const queued: Queued[] = [];
      for (const frame of framer.push(chunk)) {
        const item = this._accept(frame);
        if (item) queued.push(item);
      }
      pump.push(queued);
    });
    // A server adopted after it exited (it died while the CLI's commands loaded): what it said is still in the pipes.
    if (early?.exit) this._exit = early.exit;
    else {
      child.once('exit', (code, signal) => {
        this._exit = { code, signal };
        this._exitedAfterInput = this._sentAny;
      });
    }
    const closed = () => {
      this._releaseSandbox?.();
      // A server that exited on its own may leave descendants behind (a crash): stop them too.
      if (!this._stopping) this._leftovers = loadTransport().stopTree(child, Promise.resolve(), this._markerEntry).catch(() => undefined);
      this._finishWhenDrained();
    };
    if (early?.closed) setImmediate(closed);
    else child.once('close', closed);
  }

  /** The launch wrapped in its sandbox; a machine that cannot sandbox fails the start (ServerStartError) unless the settings allow running unsandboxed. */
  private async _sandboxed(launch: StdioLaunch, settings: SandboxSettings): Promise<Pick<StdioLaunch, 'command' | 'args' | 'env'>> {
    const wrapped = await loadTransport().wrapLaunch(launch, settings);
    switch (wrapped.kind) {
      case 'refused':
        throw new ServerStartError(wrapped.reason);
      case 'unsandboxed':
        this._options.onWarning?.(wrapped.warning);
        return launch;
      case 'sandboxed':
        this._releaseSandbox = wrapped.release;
        this._fence = wrapped.fence;
        return wrapped.launch;
    }
  }

  /** What the sandbox lets the running process touch, and what it refused; undefined when it is not sandboxed. */
  get fence(): SandboxFence | undefined {
    return this._fence;
  }

  /** Whether the running process is inside a sandbox (false when it was allowed to run unsandboxed). */
  get sandboxed(): boolean {
    return this._releaseSandbox !== undefined;
  }

  /** What a frame queues: the pieces of a large one go to the parser at once, its end takes its place in the queue. */
  private _accept(frame: Frame): Queued | undefined {
    switch (frame.kind) {
      case 'large-piece':
        this._large ??= (this._parser ??= new (loadTransport().OffThreadJsonParser)(setInPieces)).begin();
        this._large.push(frame.bytes);
        return undefined;
      case 'large-abort':
        this._large?.abort();
        this._large = undefined;
        return undefined;
      case 'large-end': {
        const message = this._large?.end() ?? Promise.reject(new Error('no message'));
        message.catch(() => undefined); // handled when its turn comes; not an unhandled rejection meanwhile
        this._large = undefined;
        return { kind: 'parsing', message, head: frame.head };
      }
      default:
        return frame;
    }
  }

  /** Messages still queued (waiting on a notification's macrotask) are delivered before onclose. */
  private _finishWhenDrained(): void {
    if (this._pump?.idle ?? true) this._finish();
    else setImmediate(() => this._finishWhenDrained());
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this._child?.stdin;
    if (!stdin || this._closed || stdin.destroyed) return Promise.reject(new Error('Not connected: the server process is not running'));
    this._sentAny = true;
    let line: string;
    try {
      line = JSON.stringify(message) + '\n';
    } catch (err) {
      return Promise.reject(err);
    }
    // A turn's sends in two writes at most (64 pipelined calls: two syscalls, not 64); a lone one at once.
    this._writes ??= turnWrites(stdin);
    // No async frame, one settled promise for every send that fits: every call sends (BENCHMARKS.md case 2).
    if (this._writes(line)) return SENT;
    // One shared wait, so a burst of sends does not pile up 'drain' listeners.
    return (this._drained ??= new Promise<void>((resolve) => stdin.once('drain', () => {
      this._drained = undefined;
      resolve();
    })));
  }

  /** One stop however often it is asked for (the SDK's close and the launch's dispose both close the transport). */
  close(): Promise<void> {
    return (this._closing ??= this._close());
  }

  private async _close(): Promise<void> {
    const child = this._child;
    if (!child) return this._finish();
    this._stopping = true;
    await this._leftovers;
    const running = child.exitCode === null && child.signalCode === null;
    if (running && this._options.stopDetached && (await this._handOffStop(child))) {
      this._releaseSandbox?.();
    } else if (running) {
      await loadTransport().stopTree(child, this._exited, this._markerEntry);
    } else {
      await loadTransport().stopTree(child, Promise.resolve(), this._markerEntry); // the leader is gone, its group may not be
    }
    this._finish();
  }

  /**
   * Hands the shutdown sequence to a detached watcher process (stopWatcher.ts) that holds the
   * server's stdin until it has scanned the tree, then lets go of every handle to the server here.
   * False when no watcher could start (Windows, a missing file): the caller stops in process.
   */
  private async _handOffStop(child: ChildProcess): Promise<boolean> {
    const watcher = spawnStopWatcher(child, this._markerEntry);
    if (!watcher) return false;
    const started = await new Promise<boolean>((resolve) => {
      watcher.once('spawn', () => resolve(true));
      watcher.once('error', () => resolve(false));
    });
    if (!started) return false;
    watcher.unref();
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.unref();
    return true;
  }

  private _finish(): void {
    if (this._closed) return;
    this._closed = true;
    this._pump?.stop();
    this._parser?.dispose();
    this._stderr.end();
    this.onclose?.();
  }

  private _drainStderr(child: ChildProcess): void {
    let partial = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.once('data', () => this._output?.());
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
}

function isFolder(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
