import * as assert from 'node:assert/strict';
import { safeElicitation } from '../../src/core/connection/elicitationRequests';
import { formFields, type FormField } from '../../src/core/elicitation/formElicitation';
import { BackendRelay, type CallClient } from '../../src/core/gateway/backendRelay';
import { sanitizeText } from '../../src/core/render/sanitize';
import { MASK } from '../../src/core/render/secrets';

const SECRET = 'sk-supersecret-0123456789';
const split = (filler: string) => `sk-su${filler}persecret-0123456789`;

/** Every string in a value, its keys too, that gives the secret away as it is or once sanitised. */
function leaks(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes(SECRET) || sanitizeText(value).includes(SECRET)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) leaks(item, out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      leaks(key, out);
      leaks(item, out);
    }
  }
  return out;
}

/** A form with the secret, whole and split, in every string the spec lets a form hold, and a key of its own. */
const schema = () => ({
  type: 'object',
  properties: {
    plan: { type: 'string', title: `Plan ${SECRET}`, description: `Pick ${split('\u200b')}`, enum: [`a-${SECRET}`, 'b'], enumNames: [`A ${split('\u00ad')}`, 'B'], default: 'b' },
    tier: { type: 'string', oneOf: [{ const: `t-${split('\ufeff')}`, title: `Tier ${SECRET}` }, { const: 'free', title: 'Free' }] },
    tags: { type: 'array', items: { type: 'string', enum: [`x-${SECRET}`, 'y'] }, default: [`x-${SECRET}`] },
    note: { type: 'string', default: `note ${split('\u200b')}`, 'x-hint': { said: [`hint ${SECRET}`] } },
    [`field-${SECRET}`]: { type: 'boolean' },
  },
  required: ['plan', `field-${SECRET}`],
});

describe("a server's form as the host asks it, with the server's secrets masked (safeElicitation)", () => {
  it('masks the secret in its message, in every string of its fields and of the schema passed on, property names too', () => {
    const fields = formFields(schema()) as FormField[];
    assert.ok(Array.isArray(fields) && leaks(fields).length > 0, 'the form is one the host shows, and holds the secret');
    const asked = safeElicitation({ message: `Form ${split('\u200b')}`, fields, schema: schema() }, [SECRET]);
    assert.deepEqual(leaks(asked), []);
    assert.equal(asked.message, `Form ${MASK}`);
    assert.deepEqual(asked.fields.map((f) => f.name), ['plan', 'tier', 'tags', 'note', `field-${MASK}`]);
  });

  it('a gateway passes the masked form on to its client, and the answer back to the server under its fields', async () => {
    const asked = safeElicitation({ message: 'Form', fields: formFields(schema()) as FormField[], schema: schema() }, [SECRET]);
    const relay = new BackendRelay();
    const sent: unknown[] = [];
    const client: CallClient = {
      session: {},
      elicit: async (params) => (sent.push(params), { action: 'accept', content: { plan: 'b', [`field-${MASK}`]: true, other: 'dropped' } }),
      log: () => undefined,
    };
    const answer = await relay.during('spill', client, () => relay.elicit({ ...asked, server: 'spill' }));
    assert.equal(sent.length, 1);
    assert.deepEqual(leaks(sent), []);
    assert.deepEqual(answer, { action: 'accept', content: { plan: 'b', [`field-${MASK}`]: true } });
  });

  it('refuses, saying why, a form nested too deep to be checked for the secrets', () => {
    const deep = schema();
    let value: unknown = SECRET;
    for (let i = 0; i < 100; i++) value = { d: value };
    (deep.properties.note as Record<string, unknown>)['x-deep'] = value;
    assert.throws(() => safeElicitation({ message: 'Deep', fields: formFields(deep) as FormField[], schema: deep }, [SECRET]), /nests deeper than \d+ levels/);
  });

  it('a link to open: its message masked, its link as it was checked', () => {
    const link = { kind: 'refused' as const, why: 'not https', shown: 'http://example.test/' };
    const asked = safeElicitation({ mode: 'url', message: `Open ${split('\u00ad')}`, link }, [SECRET]);
    assert.deepEqual(asked, { mode: 'url', message: `Open ${MASK}`, link });
  });
});
