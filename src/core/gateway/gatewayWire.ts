import { parseJSONRPCMessage, serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

/**
 * The gateway's stdio transport: the SDK's StdioServerTransport, line for line (a line that is not
 * JSON is skipped, a message the JSON-RPC schema refuses is reported and skipped, a buffer past its
 * limit closes the connection), except that each parsed line is first offered to `take`: a message
 * it answers itself (rawToolCalls.ts) never reaches the SDK, so is never parsed by its schemas.
 */
export class GatewayWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** A parsed line before the SDK sees it: true when answered (nothing more is done with it). */
  take?: (message: unknown) => boolean;
  /** Each message that goes on to the SDK, checked, before it does (a cancellation of a call answered by `take`). */
  watch?: (message: JSONRPCMessage) => void;
  private _buffer: Buffer | undefined;
  private _started = false;
  private _closed = false;

  constructor(
    private readonly _input: NodeJS.ReadableStream,
    private readonly _output: NodeJS.WritableStream,
    private readonly _maxBufferSize = STDIO_DEFAULT_MAX_BUFFER_SIZE,
  ) {}

  start(): Promise<void> {
    if (this._started) throw new Error('The gateway transport was already started.');
    this._started = true;
    const input = this._input as NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean };
    if (input.readableEnded || input.destroyed) setImmediate(this._onInputClosed);
    input.on('data', this._onData);
    input.on('error', this._onInputError);
    input.on('end', this._onInputClosed);
    input.on('close', this._onInputClosed);
    this._output.on('error', this._onOutputError);
    return Promise.resolve();
  }

  /** One message of the SDK's, written as the SDK's own transport writes it (resolves once the stream took it). */
  send(message: JSONRPCMessage): Promise<void> {
    if (this._closed) return Promise.reject(new Error('The gateway transport is closed.'));
    return this._writeText(serializeMessage(message));
  }

  /** A message serialised by the raw path: one line, to the same output as `send`, with no promise to wait on. */
  write(line: string): void {
    // Nothing waits on it: a failed write is the output's 'error' (heard since start), which closes the connection.
    if (!this._closed) this._output.write(line);
  }

  close(): Promise<void> {
    if (this._closed) return Promise.resolve();
    this._closed = true;
    const input = this._input;
    input.off('data', this._onData);
    input.off('error', this._onInputError);
    input.off('end', this._onInputClosed);
    input.off('close', this._onInputClosed);
    if (input.listenerCount('data') === 0) input.pause();
    this._buffer = undefined;
    this.onclose?.();
    return Promise.resolve();
  }

  private _writeText(text: string): Promise<void> {
    const output = this._output;
    return new Promise((resolve, reject) => {
      let settled = false;
      const onError = (error: Error) => {
        if (settled) return;
        settled = true;
        output.off('drain', onDrain);
        reject(error);
      };
      const onDrain = () => {
        if (settled) return;
        settled = true;
        output.off('error', onError);
        resolve();
      };
      output.once('error', onError);
      if (output.write(text)) {
        settled = true;
        output.off('error', onError);
        resolve();
      } else if (!settled) output.once('drain', onDrain);
    });
  }

  private readonly _onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if ((this._buffer?.length ?? 0) + bytes.length > this._maxBufferSize) {
      this._buffer = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${this._maxBufferSize} bytes`));
      void this.close();
      return;
    }
    this._buffer = this._buffer ? Buffer.concat([this._buffer, bytes]) : bytes;
    this._readLines();
  };

  private _readLines(): void {
    while (this._buffer && !this._closed) {
      const end = this._buffer.indexOf(10);
      if (end === -1) return;
      // A CR before the LF is dropped (a byte 13 is always a CR in UTF-8); a buffer read to its end is let go, not sliced.
      const line = this._buffer.toString('utf8', 0, end > 0 && this._buffer[end - 1] === 13 ? end - 1 : end);
      this._buffer = end + 1 === this._buffer.length ? undefined : this._buffer.subarray(end + 1);
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      try {
        if (this.take?.(parsed)) continue;
        const message = parseJSONRPCMessage(parsed);
        this.watch?.(message);
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  private readonly _onInputError = (error: Error) => this.onerror?.(error);
  private readonly _onInputClosed = () => void this.close();
  private readonly _onOutputError = (error: Error) => {
    if (this._closed) return;
    this.onerror?.(error);
    void this.close();
  };
}
