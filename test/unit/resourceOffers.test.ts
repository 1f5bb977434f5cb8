import * as assert from 'node:assert/strict';
import { listOffers } from '../../src/core/offers/offerListing';
import { expandTemplate, templateVariables } from '../../src/core/offers/uriTemplates';
import { silentLog } from '../../src/core/serverLog';

describe('resource templates (RFC 6570 expansion)', () => {
  it('percent-encodes a value in simple expansion: "/", "..", "?" and "#" cannot add path parts', () => {
    assert.deepEqual(expandTemplate('file:///data/{name}.txt', { name: '../../etc/passwd' }), { uri: 'file:///data/..%2F..%2Fetc%2Fpasswd.txt' });
    assert.deepEqual(expandTemplate('x://{a}', { a: 'b?c#d%41' }), { uri: 'x://b%3Fc%23d%2541' });
  });

  it('refuses a ".." segment where the template keeps reserved characters', () => {
    const problem = expandTemplate('x://tree/{+path}', { path: 'a/../../b' });
    assert.ok('problem' in problem && /".." path segment/.test(problem.problem), JSON.stringify(problem));
    assert.deepEqual(expandTemplate('x://tree/{+path}', { path: 'a/b' }), { uri: 'x://tree/a/b' });
  });

  it('names an unknown variable and a missing one in words; query variables may be left out', () => {
    const unknown = expandTemplate('x://{a}', { a: '1', b: '2' });
    assert.ok('problem' in unknown && unknown.problem === 'The template has no variable "b" (it has "a").');
    const missing = expandTemplate('x://{a}/{b}', { a: '1' });
    assert.ok('problem' in missing && missing.problem === '"b" needs a value.');
    assert.deepEqual(expandTemplate('x://s{?q,r}', { q: '1 2' }), { uri: 'x://s?q=1%202' });
  });

  it('reads the variables of a template, and says why a broken one cannot be read', () => {
    assert.deepEqual(templateVariables('x://{a}/{+b}{?c,d*}{#e:3}'), ['a', 'b', 'c', 'd', 'e']);
    assert.ok('problem' in templateVariables('x://{a'));
    assert.ok('problem' in templateVariables('x://{a b}'));
  });
});

describe('offer listings (bounded like tool listings)', () => {
  const pages = (n: number, per: number) => async (cursor: string | undefined) => {
    const at = Number(cursor ?? 0);
    return { resources: Array.from({ length: per }, (_, i) => ({ uri: `x://${at + i}` })), ...(at + per < n && { nextCursor: String(at + per) }) };
  };
  const check = (raw: Record<string, unknown>) => (typeof raw.uri === 'string' ? { uri: raw.uri } : 'no uri');

  it('walks every page to the end', async () => {
    const list = await listOffers({ method: 'resources/list', key: 'resources', fetchPage: pages(1000, 100), check, log: silentLog });
    assert.equal(list.items.length, 1000);
    assert.equal(list.cut, undefined);
  });

  it('stops at the item cap and the byte cap, keeping what it had, and says why', async () => {
    const items = await listOffers({ method: 'resources/list', key: 'resources', fetchPage: pages(1000, 100), check, log: silentLog, maxItems: 250 });
    assert.equal(items.items.length, 250);
    assert.match(items.cut ?? '', /more than 250 entries/);
    const bytes = await listOffers({ method: 'resources/list', key: 'resources', fetchPage: pages(1000, 100), check, log: silentLog, maxBytes: 1000 });
    assert.ok(bytes.items.length < 100);
    assert.match(bytes.cut ?? '', /passed 0 MiB/);
  });

  it('ends a cursor that comes back, and leaves out a bad entry with a log line', async () => {
    const warnings: string[] = [];
    const log = { ...silentLog, warn: (m: string) => void warnings.push(m) };
    const list = await listOffers({ method: 'resources/list', key: 'resources', fetchPage: async () => ({ resources: [{ uri: 'x://a' }, { nope: 1 }, 'text'], nextCursor: 'same' }), check, log });
    assert.deepEqual(list.items, [{ uri: 'x://a' }, { uri: 'x://a' }]);
    assert.match(list.cut ?? '', /a cursor it had sent before/);
    assert.deepEqual(warnings.slice(0, 2), ['resources/list: entry 2 of page 1 was left out: no uri.', 'resources/list: entry 3 of page 1 was left out: it is not an object.']);
  });
});
