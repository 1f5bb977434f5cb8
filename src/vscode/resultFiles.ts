import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { writeTextFile } from '../core/render/longText';

/**
 * Where results that do not belong in the output channel go: images, audio, blobs and long
 * texts, under the extension's storage, named so they sort by time and open in VS Code.
 */
export class ResultFiles {
  constructor(private readonly _dir: string) {}

  async save(data: Buffer | string, nameHint: string, extension: string): Promise<string> {
    const file = await this._newFile(nameHint, extension);
    await fs.writeFile(file, data);
    return file;
  }

  /** Saves a long text given in pieces (core/render/longText.ts: never joined, never encoded at once). */
  async saveText(pieces: readonly string[], nameHint: string): Promise<string> {
    const file = await this._newFile(nameHint, 'txt');
    await writeTextFile(file, pieces);
    return file;
  }

  private async _newFile(nameHint: string, extension: string): Promise<string> {
    await fs.mkdir(this._dir, { recursive: true });
    return path.join(this._dir, `${Date.now()}-${nameHint.replace(/[^\w.-]+/g, '_')}.${extension}`);
  }
}

/** A safe file extension for a MIME type (image/png -> png); anything odd becomes "bin". */
export function extensionFor(mimeType: string): string {
  const sub = mimeType.split('/')[1]?.split(/[;+]/)[0] ?? 'bin';
  return /^[a-z0-9.-]{1,10}$/i.test(sub) ? sub : 'bin';
}
