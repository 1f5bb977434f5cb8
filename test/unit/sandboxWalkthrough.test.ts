import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The walkthrough's sandbox step (issue 32): "Sandbox Every Local Server" in one click stopped every
 * server on a machine that cannot sandbox. The one-click step shows only where the machine can
 * (the context key sandboxOffer.ts sets after activation); elsewhere a step says why not and what
 * to install, with no button.
 */
const ROOT = path.join(__dirname, '../../..');
type Step = { id: string; description: string; when?: string; media: { markdown?: string } };
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { walkthroughs: { steps: Step[] }[]; commands: { command: string }[] };
};
const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const localized = (text: string) => text.replace(/^%(.+)%$/, (_, key: string) => nls[key] ?? text);
const steps = manifest.contributes.walkthroughs.flatMap((w) => w.steps);
const KEY = 'mcpToolHost.sandboxSupport';

describe('the walkthrough offers the sandbox only where the machine can sandbox', () => {
  it('the context key is the one the extension sets', () => {
    assert.ok(fs.readFileSync(path.join(ROOT, 'src/vscode/servers/sandboxOffer.ts'), 'utf8').includes(`'${KEY}'`));
  });

  it('the one-click step shows only where the machine can sandbox, and its button runs the checking command', () => {
    const step = steps.find((s) => s.id === 'sandboxServers');
    assert.ok(step);
    assert.equal(step.when, `${KEY} == yes`);
    assert.match(localized(step.description), /\(command:mcpToolHost\.sandboxEveryServer\)/);
    assert.ok(manifest.contributes.commands.some((c) => c.command === 'mcpToolHost.sandboxEveryServer'));
  });

  it('where it cannot, a step says why and what to install, and has no button', () => {
    const step = steps.find((s) => s.when === `${KEY} == no`);
    assert.ok(step, 'no step for a machine that cannot sandbox');
    const text = localized(step.description);
    assert.doesNotMatch(text, /command:/);
    assert.match(text, /sudo apt-get install bubblewrap socat ripgrep/);
    assert.match(text, /would stop every local server/);
    const media = fs.readFileSync(path.join(ROOT, step.media.markdown ?? ''), 'utf8');
    assert.match(media, /sudo apt-get install bubblewrap socat ripgrep/);
    assert.doesNotMatch(media, /command:/);
  });
});
