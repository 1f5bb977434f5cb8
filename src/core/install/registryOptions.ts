import type { InstallClaim, InstallPlan } from './installPlan';
import { InputCollector, InputProblem } from './registryInputs';
import { checkEnvName, checkHeaderName, checkNpm, checkPypi, checkWord, ociReference } from './registryNames';
import { isObject, list, text, type Json } from './registryServerJson';
import { SHOWN_CHARS, shown } from './registryText';
import type { InstallOption } from './registryTypes';

/** What every option of one entry shares. */
export interface EntryContext {
  /** The settings name suggested; input ids are made from it. */
  readonly server: string;
  /** `registry <url> <name>@<version>`. */
  readonly origin: string;
  readonly claims: readonly InstallClaim[];
}

/** The most arguments and environment variables one package may declare. */
const MAX_WORDS = 64;
/** The registries whose packages npx and uvx fetch without being pointed elsewhere. */
const PUBLIC_REGISTRY: Readonly<Record<string, string>> = { npm: 'https://registry.npmjs.org', pypi: 'https://pypi.org' };
/**
 * The `docker run` options an entry may add before the image: where files and values come from
 * and which port it listens on. Anything else (`--privileged`, `--network host`, `--entrypoint`,
 * another image) changes what runs or what it may reach, and is refused.
 */
const DOCKER_OPTIONS = new Set(['-e', '--env', '-v', '--volume', '--mount', '-p', '--publish', '-w', '--workdir']);

/** One package of an entry as an install option: a plan, or the problem that stops it. */
export function packageOption(pkg: unknown, context: EntryContext): InstallOption {
  if (!isObject(pkg)) return { runsVia: 'unknown', label: 'a package', problem: 'the package is not an object' };
  const type = text(pkg, 'registryType') ?? '';
  const identifier = text(pkg, 'identifier') ?? '';
  const version = text(pkg, 'version');
  const label = shown(`${type || '(no type)'} ${identifier}${version ? `@${version}` : ''}`, SHOWN_CHARS.label);
  const refuse = (runsVia: InstallOption['runsVia'], problem: string): InstallOption => ({ runsVia, label, problem: shown(problem, SHOWN_CHARS.reason) });
  switch (type) {
    case 'npm':
    case 'pypi':
    case 'oci':
      break;
    case 'mcpb':
      return bundleOption(pkg, identifier, label, context);
    case 'nuget':
      return refuse('unknown', 'NuGet packages (dnx) cannot be installed here yet');
    default:
      return refuse('unknown', `its registry type "${type}" is unknown here, so how to run it is not known`);
  }
  const transport = pkg.transport === undefined ? { type: 'stdio' } : pkg.transport;
  if (!isObject(transport) || transport.type !== 'stdio') return refuse(type, `it runs as a server on your machine that is reached over ${isObject(transport) ? `"${String(transport.type)}"` : 'an unknown transport'}: only packages spoken to over stdio can be installed`);
  const base = text(pkg, 'registryBaseUrl');
  if (base !== undefined && type !== 'oci' && base.replace(/\/+$/, '') !== PUBLIC_REGISTRY[type]) return refuse(type, `it comes from another registry (${base}) than ${PUBLIC_REGISTRY[type]}`);
  try {
    const inputs = new InputCollector(context.server);
    const env = environment(pkg, inputs);
    const packageArgs = argumentWords(pkg, 'packageArguments', inputs);
    const runtimeArgs = argumentWords(pkg, 'runtimeArguments', inputs);
    let entry: Record<string, unknown>;
    if (type === 'oci') {
      const image = ociReference(identifier, version);
      if ('problem' in image) return refuse('oci', image.problem);
      checkDockerOptions(runtimeArgs);
      const passed = Object.keys(env).flatMap((name) => ['-e', name]);
      entry = { command: 'docker', args: ['run', '-i', '--rm', ...runtimeArgs, ...passed, image.reference, ...packageArgs] };
    } else {
      // npx and uvx options before the package could name another package to run (`--package`, `--from`).
      if (runtimeArgs.length > 0) return refuse(type, `it asks for ${type === 'npm' ? 'npx' : 'uvx'} options (${runtimeArgs.join(' ')}), which can change which package runs`);
      const problem = type === 'npm' ? checkNpm(identifier, version) : checkPypi(identifier, version);
      if (problem) return refuse(type, problem);
      entry = type === 'npm' ? { command: 'npx', args: ['-y', `${identifier}@${version!}`, ...packageArgs] } : { command: 'uvx', args: [`${identifier}==${version!}`, ...packageArgs] };
    }
    if (Object.keys(env).length > 0) entry.env = env;
    return { runsVia: type, label, plan: plan(context, entry, inputs, type) };
  } catch (err) {
    if (err instanceof InputProblem) return refuse(type, err.message);
    throw err;
  }
}

/** The sha256 of a file, as the schema's `fileSha256` gives it. */
const SHA256 = /^[0-9a-f]{64}$/i;

/**
 * A bundle (.mcpb) package: installable by download when its URL can be fetched safely (https, or
 * http to this machine; no credentials) and the registry gives the file's sha256, so what is
 * downloaded is known to be what the registry lists. The plan comes from the bundle itself.
 */
function bundleOption(pkg: Json, url: string, label: string, context: EntryContext): InstallOption {
  const refuse = (problem: string): InstallOption => ({ runsVia: 'mcpb', label, problem: shown(problem, SHOWN_CHARS.reason) });
  const transport = pkg.transport === undefined ? { type: 'stdio' } : pkg.transport;
  if (!isObject(transport) || transport.type !== 'stdio') return refuse(`it is a bundle reached over ${isObject(transport) ? `"${String(transport.type)}"` : 'an unknown transport'}: only bundles spoken to over stdio can be installed`);
  const sha256 = text(pkg, 'fileSha256');
  if (sha256 === undefined) return refuse('it is a bundle without a fileSha256: what would be downloaded could not be checked to be the file the registry lists');
  if (!SHA256.test(sha256)) return refuse('its fileSha256 is not a sha256 (64 hexadecimal digits)');
  if (/[{}\s]/.test(url)) return refuse('its bundle URL holds a variable or a space: where it is downloaded from cannot be checked');
  const problem = checkRemoteUrl(url);
  if (problem) return refuse(problem.replace(/^its URL/, 'its bundle URL'));
  return { runsVia: 'mcpb', label, bundle: { url, sha256: sha256.toLowerCase(), name: context.server, origin: context.origin, claims: context.claims } };
}

/** A remote of an entry as an install option (schema: RemoteTransport). */
export function remoteOption(remote: unknown, context: EntryContext): InstallOption {
  if (!isObject(remote)) return { runsVia: 'remote', label: 'a remote', problem: 'the remote is not an object' };
  const type = text(remote, 'type') ?? '';
  const url = text(remote, 'url') ?? '';
  const label = shown(`remote ${url}`, SHOWN_CHARS.label);
  const refuse = (problem: string): InstallOption => ({ runsVia: 'remote', label, problem: shown(problem, SHOWN_CHARS.reason) });
  if (type !== 'streamable-http' && type !== 'sse') return refuse(`its transport "${type}" is unknown here (streamable-http or sse)`);
  try {
    const inputs = new InputCollector(context.server);
    const variables = remote.variables === undefined ? {} : remote.variables;
    if (!isObject(variables)) return refuse('its variables are not an object');
    const urlProblem = checkRemoteUrl(url);
    if (urlProblem) return refuse(urlProblem);
    const entryUrl = inputs.substitute(url, variables, false);
    const headerList = list(remote, 'headers');
    if (headerList === undefined) return refuse('its headers are not a list');
    if (headerList.length > MAX_WORDS) return refuse(`it declares ${headerList.length} headers`);
    const headers: Record<string, string> = {};
    for (const header of headerList) {
      if (!isObject(header)) return refuse('a header is not an object');
      const name = text(header, 'name') ?? '';
      const problem = checkHeaderName(name);
      if (problem) return refuse(problem);
      if (Object.keys(headers).some((h) => h.toLowerCase() === name.toLowerCase())) return refuse(`the header "${name}" is declared twice`);
      headers[name] = inputs.valueOf(header, name);
    }
    const entry: Record<string, unknown> = { type: 'http', url: entryUrl, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
    return { runsVia: 'remote', label, plan: plan(context, entry, inputs, 'remote') };
  } catch (err) {
    if (err instanceof InputProblem) return refuse(err.message);
    throw err;
  }
}

function plan(context: EntryContext, entry: Record<string, unknown>, inputs: InputCollector, runsVia: InstallPlan['runsVia']): InstallPlan {
  return { name: context.server, entry, inputs: inputs.inputs, claims: context.claims, origin: context.origin, runsVia };
}

/**
 * Where a remote connects, checked before any value is asked: https (http only to this machine),
 * no user name or password in it (they would be sent to whoever answers, and kept in settings),
 * and a host the entry names itself (a URL that starts with a variable cannot be checked).
 */
export function checkRemoteUrl(url: string): string | undefined {
  const scheme = /^(https?):\/\//i.exec(url);
  if (!scheme) return url.startsWith('{') ? 'its URL starts with a variable, so where it connects cannot be checked' : 'its URL is not an http(s) URL';
  let parsed: URL;
  try {
    // Variables stand for plain words here; the URL with them filled in is checked again at launch.
    parsed = new URL(url.replace(/\{[^{}]*\}/g, 'x'));
  } catch {
    return 'its URL is not a valid URL';
  }
  if (parsed.username || parsed.password || /^https?:\/\/[^/?#]*@/i.test(url)) return 'its URL carries a user name or password: credentials are never taken from a registry';
  const loopback = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(parsed.hostname);
  if (parsed.protocol === 'http:' && !loopback) return 'its URL is plain http to another machine: only https is installed (http only to this machine)';
  return undefined;
}

/** `environmentVariables` as the entry's `env`, each value fixed or asked. */
function environment(pkg: Json, inputs: InputCollector): Record<string, string> {
  const declared = list(pkg, 'environmentVariables');
  if (declared === undefined) throw new InputProblem('its environmentVariables are not a list');
  if (declared.length > MAX_WORDS) throw new InputProblem(`it declares ${declared.length} environment variables`);
  const env: Record<string, string> = {};
  for (const variable of declared) {
    if (!isObject(variable)) throw new InputProblem('an environment variable is not an object');
    const name = text(variable, 'name') ?? '';
    const problem = checkEnvName(name);
    if (problem) throw new InputProblem(problem);
    if (Object.hasOwn(env, name)) throw new InputProblem(`the environment variable "${name}" is declared twice`);
    env[name] = inputs.valueOf(variable, name);
  }
  return env;
}

/** `runtimeArguments` or `packageArguments` as words of the command line (schema: Argument). */
function argumentWords(pkg: Json, key: 'runtimeArguments' | 'packageArguments', inputs: InputCollector): string[] {
  const declared = list(pkg, key);
  if (declared === undefined) throw new InputProblem(`its ${key} are not a list`);
  if (declared.length > MAX_WORDS) throw new InputProblem(`it declares ${declared.length} ${key}`);
  const words: string[] = [];
  declared.forEach((argument, index) => {
    if (!isObject(argument)) throw new InputProblem(`an argument of ${key} is not an object`);
    if (argument.type === 'named') {
      const name = text(argument, 'name') ?? '';
      const problem = checkWord(name, 'flag');
      if (problem) throw new InputProblem(problem);
      words.push(name, inputs.valueOf(argument, name.replace(/^-+/, '')));
    } else if (argument.type === 'positional') {
      const hint = text(argument, 'valueHint');
      if (hint === undefined && argument.value === undefined) throw new InputProblem(`argument ${index + 1} of ${key} has neither a value nor a valueHint`);
      if (hint !== undefined) {
        const problem = checkWord(hint, 'argument');
        if (problem) throw new InputProblem(problem);
      }
      words.push(inputs.valueOf(argument, hint ?? `argument${index + 1}`));
    } else {
      throw new InputProblem(`argument ${index + 1} of ${key} is of an unknown type "${String(argument.type)}"`);
    }
  });
  return words;
}

/** Every option word is one of DOCKER_OPTIONS (or `--option=value`), and every other word is such an option's value. */
function checkDockerOptions(words: readonly string[]): void {
  for (let i = 0; i < words.length; i++) {
    const option = words[i].split('=')[0];
    if (!DOCKER_OPTIONS.has(option)) throw new InputProblem(words[i].startsWith('-') ? `it asks docker for "${words[i]}", which is not passed (only ${[...DOCKER_OPTIONS].join(', ')})` : `its docker options hold "${words[i]}" where an option belongs`);
    if (!words[i].includes('=')) i++; // the option's value
  }
}
