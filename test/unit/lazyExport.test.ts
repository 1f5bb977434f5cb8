import * as assert from 'node:assert/strict';
import { lazyFunction, lazyObject, type CoreBundle } from '../../src/lazyExport';

class Widget {
  static made = 0;
  constructor(readonly size: number) {
    Widget.made++;
  }
  grow(): number {
    return this.size + 1;
  }
}

describe('lazyExport (the facades of dist/extension.js)', () => {
  let loads = 0;
  const bundle: CoreBundle = { packages: { pkg: { Widget, double: (n: unknown) => Number(n) * 2, codes: { A: 1 } } } };
  const load = () => (loads++, bundle);
  beforeEach(() => (loads = 0));

  it('loads nothing until an export is first used', () => {
    lazyFunction(load, 'pkg', 'Widget');
    lazyObject(load, 'pkg', 'codes');
    assert.equal(loads, 0);
  });

  it('a class export constructs real instances, keeps instanceof and statics, and loads once', () => {
    const Lazy = lazyFunction(load, 'pkg', 'Widget') as typeof Widget;
    const w = new Lazy(2);
    assert.ok(w instanceof Widget);
    assert.ok(w instanceof Lazy);
    assert.equal(w.grow(), 3);
    assert.equal(Lazy.made, Widget.made);
    assert.ok(!(new Date() instanceof Lazy));
    class Bigger extends Lazy {
      override grow(): number {
        return super.grow() * 10;
      }
    }
    assert.equal(new Bigger(1).grow(), 20);
    assert.equal(loads, 1);
  });

  it('a function export is called with its arguments; an object export reads through', () => {
    const double = lazyFunction(load, 'pkg', 'double') as (n: number) => number;
    const codes = lazyObject(load, 'pkg', 'codes') as { A: number };
    assert.equal(double(21), 42);
    assert.equal(codes.A, 1);
    assert.deepEqual(Object.keys(codes), ['A']);
  });
});
