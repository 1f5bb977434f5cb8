import type { InstallPlan } from './installPlan';

/** The sandbox an installed server's entry may be given, and what it lets the server do. */
export interface InstallSandbox {
  /** The entry's `sandbox`, as settings and a CLI config hold it. */
  readonly entry: Readonly<Record<string, unknown>>;
  /** What it allows, one sentence (the surfaces may say it in the user's language). */
  readonly allows: string;
}

/**
 * The sandbox an installed server is offered, by what runs it, for both surfaces: each lets the
 * package's own installer reach its registry and write its cache, nothing else; a bundle brings its
 * files, so it may write nowhere and reach no network.
 */
const SANDBOXES: Partial<Record<InstallPlan['runsVia'], InstallSandbox>> = {
  npm: {
    entry: { filesystem: { allowWrite: ['~/.npm'] }, network: { allowedDomains: ['registry.npmjs.org'] } },
    allows: "It may write only npm's cache (~/.npm) and reach only registry.npmjs.org (to fetch its package).",
  },
  pypi: {
    entry: { filesystem: { allowWrite: ['~/.cache/uv', '~/.local/share/uv'] }, network: { allowedDomains: ['pypi.org', 'files.pythonhosted.org'] } },
    allows: "It may write only uv's cache and reach only pypi.org (to fetch its package).",
  },
  mcpb: {
    entry: { network: 'none' },
    allows: 'It may write nowhere and reach no network.',
  },
};

/**
 * The sandbox for a server run via `runsVia`, or why there is none: a container runs under its
 * daemon, outside any sandbox of ours, and a remote server runs on another machine.
 */
export function installSandbox(runsVia: InstallPlan['runsVia']): InstallSandbox | { readonly none: string } {
  return (
    SANDBOXES[runsVia] ?? {
      none: runsVia === 'oci' ? 'a container (docker run) runs under its daemon, outside any sandbox of this host' : 'a remote server runs on another machine: a sandbox here cannot hold it',
    }
  );
}
