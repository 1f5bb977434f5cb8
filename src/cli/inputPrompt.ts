import * as readline from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { InputSpec, ServerDefinition } from '../core/config/serverConfig';
import { sanitizeLine, shownName } from '../core/render/sanitize';
import { CliError } from './args';

/** A pick answered wrongly this many times in a row stops the start. */
const TRIES = 3;

/**
 * Asks on the terminal for the `${input:id}` values a server needs, as VS Code asks when it
 * starts: its description (from the config, so made safe and cut), a password not echoed, a
 * default taken on Enter, a pick by number or value. One question at a time (servers start side by
 * side), and each id once a run: a second server naming it gets the same value. Ctrl+C stops the
 * run (exit 130).
 */
export class InputAsker {
  private readonly _given = new Map<string, string>();
  private _queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly _input: NodeJS.ReadableStream,
    private readonly _output: NodeJS.WritableStream,
  ) {}

  /** The values of `ids` for `def`, asked for those not given before. */
  ask(def: ServerDefinition, ids: readonly string[]): Promise<Record<string, string>> {
    const turn = this._queue.then(() => this._askAll(def, ids));
    this._queue = turn.catch(() => undefined);
    return turn;
  }

  private async _askAll(def: ServerDefinition, ids: readonly string[]): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const id of ids) {
      let value = this._given.get(id);
      if (value === undefined) {
        value = await this._askOne(def, id, def.inputs?.find((i) => i.id === id));
        this._given.set(id, value);
      }
      values[id] = value;
    }
    return values;
  }

  private async _askOne(def: ServerDefinition, id: string, spec: InputSpec | undefined): Promise<string> {
    let hidden = false;
    const echo = new Writable({ write: (chunk: Buffer, _encoding, done) => (hidden || this._output.write(chunk), done()) });
    const rl = readline.createInterface({ input: this._input, output: echo, terminal: true });
    rl.on('SIGINT', () => {
      rl.close();
      process.kill(process.pid, 'SIGINT');
    });
    const say = (text: string) => this._output.write(text);
    try {
      const what = spec?.description ? sanitizeLine(spec.description).slice(0, 200) : 'a value';
      say(`Server "${shownName(def.name)}" needs ${what} (\${input:${shownName(id)}}).\n`);
      const options = spec?.type === 'pickString' ? (spec.options ?? []) : [];
      if (options.length > 0) {
        options.forEach((o, i) => say(`  ${i + 1}. ${sanitizeLine(o).slice(0, 200)}\n`));
        for (let tries = 0; tries < TRIES; tries++) {
          const answer = (await rl.question(`Pick one (1-${options.length}${spec?.default !== undefined ? `, Enter for "${sanitizeLine(spec.default)}"` : ''}): `)).trim();
          if (answer === '' && spec?.default !== undefined) return spec.default;
          const picked = /^\d+$/.test(answer) ? options[Number(answer) - 1] : options.find((o) => o === answer);
          if (picked !== undefined) return picked;
        }
        throw new CliError(`Server "${shownName(def.name)}" was not started: no option of \${input:${shownName(id)}} was picked.`);
      }
      const secret = spec?.password === true;
      // The question is written at once; what is typed after it is not echoed for a password.
      const asked = rl.question(`${secret ? 'Type it (not shown)' : 'Type it'}${spec?.default !== undefined && !secret ? ` (Enter for "${sanitizeLine(spec.default)}")` : ''}: `);
      hidden = secret;
      const answer = await asked;
      hidden = false;
      if (secret) say('\n');
      return answer === '' && spec?.default !== undefined ? spec.default : answer;
    } finally {
      rl.close();
    }
  }
}
