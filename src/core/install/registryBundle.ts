import * as crypto from 'node:crypto';
import { bundleFromBytes, type BundleInstall } from './bundle';
import { BUNDLE_LIMITS } from './bundleArchive';
import { BundleError } from './bundleErrors';
import { fetchBounded } from './registryClient';
import { checkRemoteUrl } from './registryOptions';
import type { RegistryBundle } from './registryTypes';

/** How long a bundle's download may take, answer and body: 100 MiB at under 1 MiB/s is too slow to wait for. */
export const BUNDLE_DOWNLOAD_TIMEOUT_MS = 120_000;

/**
 * Downloads the bundle a registry entry points at (within BUNDLE_LIMITS.fileBytes and `timeoutMs`,
 * redirects checked as the registry client checks them; `signal` cancels), refuses it unless its
 * sha256 is the one the registry gave, then reads it as a bundle file is read: its plan runs what
 * the bundle declares, unpacked under `root`, and carries the bundle's claims and the registry's.
 * Nothing is written before `unpack`. Throws RegistryError (the download) or BundleError (the file).
 */
export async function downloadBundle(bundle: RegistryBundle, options: { readonly root: string; readonly name?: string; readonly signal?: AbortSignal; readonly timeoutMs?: number }): Promise<BundleInstall> {
  const problem = checkRemoteUrl(bundle.url);
  if (problem) throw new BundleError(`The bundle was not downloaded: ${problem}.`);
  const url = new URL(bundle.url);
  const bytes = await fetchBounded(url, {
    who: `The bundle's address ${url.origin}`,
    tooBig: `The bundle at ${url.origin}${url.pathname} is over ${BUNDLE_LIMITS.fileBytes / 1048576} MiB: not downloaded.`,
    accept: 'application/octet-stream, */*',
    timeoutMs: options.timeoutMs ?? BUNDLE_DOWNLOAD_TIMEOUT_MS,
    maxBytes: BUNDLE_LIMITS.fileBytes,
    signal: options.signal,
  });
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== bundle.sha256.toLowerCase()) {
    throw new BundleError(`The file downloaded from ${url.origin}${url.pathname} has sha256 ${sha256}, not the ${bundle.sha256} the registry lists: it is not the bundle the registry describes, and was not installed.`);
  }
  const read = await bundleFromBytes(bytes, bundle.url, { root: options.root, name: options.name ?? bundle.name });
  // The bundle speaks first (what it runs is its own), then the registry: both are claims.
  const plan = {
    ...read.plan,
    origin: `${bundle.origin}, bundle ${bundle.url} sha256:${sha256}`,
    claims: [...read.plan.claims, ...bundle.claims.map((c) => ({ label: `Registry: ${c.label}`, value: c.value }))],
  };
  return { ...read, plan };
}
