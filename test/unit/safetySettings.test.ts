import * as assert from 'node:assert/strict';
import { onIsSafer, saferOf, smallerIsSafer } from '../../src/core/policy/safetySettings';

describe('safety settings: a workspace may tighten, never loosen', () => {
  it('"approve every call" set by the user stays on whatever the workspace says', () => {
    assert.equal(saferOf({ defaultValue: false, globalValue: true, workspaceValue: false }, onIsSafer), true);
    assert.equal(saferOf({ defaultValue: false, globalValue: true, workspaceFolderValue: false }, onIsSafer), true);
    assert.equal(saferOf({ defaultValue: false, workspaceValue: true }, onIsSafer), true, 'a workspace may turn it on');
    assert.equal(saferOf({ defaultValue: false }, onIsSafer), false);
    assert.equal(saferOf(undefined, onIsSafer), false);
  });

  it('limits take the smaller of the user\'s and the workspace\'s, and ignore invalid values', () => {
    const burst = smallerIsSafer(20, 1);
    assert.equal(saferOf({ defaultValue: 20, workspaceValue: 1_000_000 }, burst), 20, 'a repository cannot lift the rate limit');
    assert.equal(saferOf({ defaultValue: 20, globalValue: 50, workspaceValue: 100 }, burst), 50);
    assert.equal(saferOf({ defaultValue: 20, globalValue: 50, workspaceValue: 5 }, burst), 5);
    assert.equal(saferOf({ defaultValue: 20, workspaceValue: 0 }, burst), 20, 'below the minimum is not a value');
    assert.equal(saferOf({ defaultValue: 20, workspaceValue: 'x' }, burst), 20);
    assert.equal(saferOf({ defaultValue: 20, globalValue: Number.NaN }, burst), 20);
  });
});
