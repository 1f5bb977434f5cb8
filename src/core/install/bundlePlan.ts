import * as os from 'node:os';
import * as path from 'node:path';
import { checkServerName } from '../config/newServerEntry';
import { sanitizeLine } from '../render/sanitize';
import type { BundleManifest } from './bundleManifest';
import { BundleError } from './bundleErrors';
import type { BundleSignature } from './bundleSignature';
import { installInputId } from './inputIds';
import type { InstallClaim, InstallInput, InstallPlan } from './installPlan';

/** The settings name a bundle suggests: its manifest name, reduced to what a server name may hold. */
export function bundleServerName(manifest: BundleManifest): string {
  const name = manifest.name.replace(/[^\w .@-]/g, '-').replace(/^[ ]+/, '').slice(0, 60);
  return checkServerName(name, new Set()) === undefined ? name : 'bundle';
}

/**
 * The InstallPlan of a bundle unpacked at `unpackDir`: the manifest's `server.mcp_config` (with
 * this platform's override) where `${__dirname}` is the unpack folder and `${user_config.KEY}` is
 * `${input:<server>.KEY}`; the user's folders it may name (`${HOME}`, `${DOCUMENTS}`, ...) are
 * written out, so the entry shows the very path. Any other variable a bundle writes is refused: left in, the launch would
 * resolve it (`${env:...}`, or another server's `${input:...}`) and hand the bundle a value that
 * was never meant for it.
 */
export function bundlePlan(manifest: BundleManifest, options: { readonly name: string; readonly unpackDir: string; readonly origin: string; readonly signature: BundleSignature }): InstallPlan {
  const { name, unpackDir } = options;
  if (unpackDir.includes('${')) throw new BundleError(`The unpack folder ${unpackDir} holds "\${", which a launch would read as a variable.`);
  const declared = manifest.user_config ?? {};
  const used = new Set<string>();
  const substitute = (text: string): string =>
    text.replace(/\$\{([^}]*)\}/g, (whole, variable: string) => {
      if (variable === '__dirname') return unpackDir;
      if (variable === 'pathSeparator' || variable === '/') return path.sep;
      if (variable === 'HOME') return os.homedir();
      const folder = ({ DESKTOP: 'Desktop', DOCUMENTS: 'Documents', DOWNLOADS: 'Downloads' } as Record<string, string>)[variable];
      if (folder) return path.join(os.homedir(), folder);
      const key = /^user_config\.(.+)$/.exec(variable)?.[1];
      if (key !== undefined && Object.hasOwn(declared, key)) {
        used.add(key);
        return `\${input:${installInputId(name, key)}}`;
      }
      throw new BundleError(`The bundle's server.mcp_config uses ${sanitizeLine(whole).slice(0, 80)}, ${key !== undefined ? 'which its user_config does not declare' : 'which MCP Bundles do not define'}.`);
    });
  const base = manifest.server.mcp_config;
  const override = base.platform_overrides?.[process.platform] ?? {};
  const command = override.command ?? base.command;
  const args = override.args ?? base.args ?? [];
  const env = override.env ?? base.env;
  const entry: Record<string, unknown> = { command: substitute(command), args: args.map(substitute) };
  if (env && Object.keys(env).length > 0) entry.env = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, substitute(v)]));
  const inputs: InstallInput[] = Object.entries(declared).filter(([key]) => used.has(key)).map(([key, option]) => ({
    id: installInputId(name, key),
    label: sanitizeLine(option.title || key).slice(0, 120),
    description: sanitizeLine(option.description).slice(0, 500),
    secret: option.sensitive === true,
    required: option.required === true,
    ...(option.default !== undefined && !option.sensitive ? { default: Array.isArray(option.default) ? option.default.join(',') : String(option.default) } : {}),
    ...(option.type === 'boolean' ? { choices: ['true', 'false'] } : {}),
  }));
  return { name, entry, inputs, claims: bundleClaims(manifest, options.signature, unpackDir), origin: options.origin, runsVia: 'mcpb' };
}

/** How many tools or prompts a claim lists by name before it says how many more. */
const LISTED = 30;

/** What the manifest says about the bundle, every value sanitised and cut: claims, not facts. */
function bundleClaims(manifest: BundleManifest, signature: BundleSignature, unpackDir: string): InstallClaim[] {
  const line = (text: string, max = 200) => {
    const clean = sanitizeLine(text).trim();
    return clean.length > max ? `${clean.slice(0, max)}…` : clean;
  };
  const names = (list: readonly { name: string }[] | undefined) => {
    if (!list || list.length === 0) return undefined;
    const shown = list.slice(0, LISTED).map((t) => line(t.name, 64)).join(', ');
    return list.length > LISTED ? `${shown} and ${list.length - LISTED} more` : shown;
  };
  const author = manifest.author;
  const compatibility = manifest.compatibility;
  const runtimes = compatibility?.runtimes && Object.entries(compatibility.runtimes).map(([k, v]) => `${k} ${v}`).join(', ');
  const claims: [string, string | undefined][] = [
    ['Signature (checked)', signatureLine(signature)],
    ['Name', line(manifest.display_name ? `${manifest.display_name} (${manifest.name})` : manifest.name)],
    ['Version', line(manifest.version, 64)],
    ['Author', line([author.name, author.email && `<${author.email}>`, author.url].filter(Boolean).join(' '))],
    ['Description', line(manifest.description, 500)],
    ['Server type', `${manifest.server.type}, entry point ${line(path.join(unpackDir, manifest.server.entry_point), 400)}`],
    ['Tools', names(manifest.tools) ?? (manifest.tools_generated ? 'generated when it runs' : undefined)],
    ['Prompts', names(manifest.prompts) ?? (manifest.prompts_generated ? 'generated when it runs' : undefined)],
    ['User configuration', Object.entries(manifest.user_config ?? {}).map(([k, o]) => `${line(k, 64)} (${o.type}${o.sensitive ? ', secret' : ''}${o.required ? ', required' : ''})`).join(', ') || undefined],
    ['Compatibility', [compatibility?.platforms && `platforms ${compatibility.platforms.join(', ')}`, runtimes && `runtimes ${line(runtimes)}`, compatibility?.claude_desktop && `Claude Desktop ${line(compatibility.claude_desktop, 64)}`].filter(Boolean).join('; ') || undefined],
    ['Repository', manifest.repository && line(manifest.repository.url)],
    ['Homepage', manifest.homepage && line(manifest.homepage)],
    ['License', manifest.license && line(manifest.license, 64)],
  ];
  return claims.filter((c): c is [string, string] => c[1] !== undefined && c[1] !== '').map(([label, value]) => ({ label, value }));
}

/** What a signature proves, one line. */
export function signatureLine(signature: BundleSignature): string {
  if (signature.kind === 'unsigned') return 'unsigned: nothing says who made this bundle';
  const who = `${sanitizeLine(signature.publisher).slice(0, 100)} (certificate sha256 ${signature.fingerprint.slice(0, 16)}…)`;
  if (signature.trusted) return `signed by ${who}, issued by ${sanitizeLine(signature.issuer).slice(0, 100)}, trusted by this machine; unchanged since signing`;
  if (signature.selfSigned) return `self-signed by ${who}: unchanged since signing, but no authority vouches for the signer`;
  return `signed by ${who}, issued by ${sanitizeLine(signature.issuer).slice(0, 100)}, which this machine does not trust; unchanged since signing`;
}
