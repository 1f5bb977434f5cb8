import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { argumentsHash, CallAuditRecord } from '../../src/core/calls/auditHash';
import { FileAuditLog } from '../../src/core/calls/fileAuditLog';
import type { AuditRecord } from '../../src/core/calls/ports';

const record = (callId: string): AuditRecord => ({ time: new Date(0).toISOString(), callId, origin: 'cli', server: 's', tool: 't', argsHash: 'h', decision: 'allowed', outcome: 'ok' });

describe('the audit log file', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-audit-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('makes its folder, and makes it again when it was removed meanwhile: no line is lost', () => {
    const file = path.join(dir, 'state', 'mcp-tool-host', 'audit.jsonl');
    const log = new FileAuditLog(file);
    log.append(record('one'));
    fs.rmSync(path.join(dir, 'state'), { recursive: true });
    log.append(record('two'));
    log.append(record('three'));
    assert.deepEqual(fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as AuditRecord).callId), ['two', 'three']);
  });

  it('a folder it cannot make is an error, not a silent loss', () => {
    fs.writeFileSync(path.join(dir, 'blocker'), '');
    assert.throws(() => new FileAuditLog(path.join(dir, 'blocker', 'audit.jsonl')).append(record('one')), /ENOTDIR|EEXIST/);
  });
  it("writes a call's record as its line: the fields in order, the arguments only as their hash", () => {
    const file = path.join(dir, 'audit.jsonl');
    const args = { token: 'sk-live-secret', path: '/etc/passwd' };
    const entry = new CallAuditRecord('T', 'C', 'gateway', 's', 't', args, "allowed by rule 'r' [read-only \u00b7 open-world?]", undefined, 'ok');
    new FileAuditLog(file).append(entry);
    const line = fs.readFileSync(file, 'utf8');
    assert.equal(line, `{"time":"T","callId":"C","origin":"gateway","server":"s","tool":"t","argsHash":"${argumentsHash(args)}","decision":"allowed by rule 'r' [read-only \u00b7 open-world?]","outcome":"ok"}\n`);
    assert.ok(!line.includes('secret') && !line.includes('passwd'), 'what was sent is not written');
    assert.equal(entry.argsHash, argumentsHash(args));
  });
});
