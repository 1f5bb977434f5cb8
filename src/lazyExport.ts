// Stand-ins for the exports of a package that is loaded on first use. esbuild.mjs builds
// dist/extension.js with a generated facade for each heavy package (the MCP SDK client, ajv):
// every export of the facade is made here and reaches the real one, in dist/core.js, only when
// it is first constructed, called or read. So activation loads neither the SDK nor ajv; the
// first server start or schema check does (code loaded at activation <= 150 KB: ARCHITECTURE.md "Limits").

type AnyFunction = (...args: unknown[]) => unknown;
type AnyConstructor = new (...args: unknown[]) => object;
/** What dist/core.js exports: each lazy package's exports, by package name. */
export type CoreBundle = { readonly packages: Readonly<Record<string, Readonly<Record<string, unknown>>>> };

/**
 * A function or class export of a lazy package. `new`, calls, static members and `instanceof`
 * all reach the real export, which is loaded at the first of them.
 */
export function lazyFunction(load: () => CoreBundle, pkg: string, name: string): unknown {
  let real: AnyFunction | undefined;
  const resolve = (): AnyFunction => (real ??= load().packages[pkg][name] as AnyFunction);
  const proxy: object = new Proxy(function lazy() {}, {
    apply: (_target, self, args) => Reflect.apply(resolve(), self, args),
    // `new Facade()` builds a real instance (its prototype is the real class's); a subclass keeps its own newTarget.
    construct: (_target, args, newTarget) => Reflect.construct(resolve() as unknown as AnyConstructor, args, newTarget === proxy ? resolve() : newTarget),
    get: (_target, key) => Reflect.get(resolve(), key),
    set: (_target, key, value) => Reflect.set(resolve(), key, value),
    has: (_target, key) => Reflect.has(resolve(), key),
  });
  return proxy;
}

/** An object export of a lazy package (not plain data, which the facade holds as a literal). */
export function lazyObject(load: () => CoreBundle, pkg: string, name: string): unknown {
  let real: object | undefined;
  const resolve = (): object => (real ??= load().packages[pkg][name] as object);
  return new Proxy({}, {
    get: (_target, key) => Reflect.get(resolve(), key),
    set: (_target, key, value) => Reflect.set(resolve(), key, value),
    has: (_target, key) => Reflect.has(resolve(), key),
    ownKeys: () => Reflect.ownKeys(resolve()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(resolve(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
