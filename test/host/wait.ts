/** Waiting helpers for extension-host tests (the workbench answers asynchronously). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` (sync or async) every 100 ms until it returns something truthy, or fails naming `what`. */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
