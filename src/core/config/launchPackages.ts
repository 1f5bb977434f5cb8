/**
 * Which packages a stdio launch fetches and runs, read from its command line the way the package
 * runners read it (npx, npm exec, pnpm dlx, yarn dlx, bunx, uvx, pipx run, docker/podman run). An
 * administrator's allowlist names packages, so what it cannot read with certainty is `undefined`
 * (no package entry can allow it): an option it does not know may take a value, and then the next
 * word is not the package. Versions are left off (`@scope/name@1.2.3` is `@scope/name`).
 */

/** What a launch runs, as package names of one ecosystem. */
export interface LaunchPackages {
  readonly ecosystem: 'npm' | 'pypi' | 'oci';
  /** Every package the runner installs for this launch: each one must be allowed. */
  readonly names: readonly string[];
}

/** Options of each runner that take a value (the next word), and those that name a package. */
interface Runner {
  readonly ecosystem: LaunchPackages['ecosystem'];
  /** Options followed by a value that is not a package. */
  readonly valued: ReadonlySet<string>;
  /** Options without a value. */
  readonly flags: ReadonlySet<string>;
  /** Options whose value is one more package to install (`--package X`, `--with X`). */
  readonly packageOptions: ReadonlySet<string>;
  /** With a package option given, is the first word the program to run (npx -p) rather than a package? */
  readonly commandAfterPackages: boolean;
}

const NPX: Runner = {
  ecosystem: 'npm',
  valued: new Set(['--registry', '--cache', '--userconfig', '--prefix', '--workspace', '-w', '--loglevel']),
  flags: new Set(['-y', '--yes', '--no', '--no-install', '-q', '--quiet', '--prefer-offline', '--prefer-online', '--offline', '--silent', '--ignore-existing', '--include-workspace-root', '--workspaces', '-ws']),
  packageOptions: new Set(['-p', '--package']),
  commandAfterPackages: true,
};
const UVX: Runner = {
  ecosystem: 'pypi',
  valued: new Set(['--python', '-p', '--index', '--index-url', '--extra-index-url', '--default-index', '--find-links', '-f', '--constraints', '-c', '--overrides', '--cache-dir', '--directory', '--project', '--config-file', '--env-file']),
  flags: new Set(['-q', '--quiet', '-v', '--verbose', '--isolated', '--offline', '--no-cache', '-n', '--refresh', '--upgrade', '-U', '--no-python-downloads', '--native-tls', '--no-progress']),
  packageOptions: new Set(['--from', '--with']),
  commandAfterPackages: false,
};
const PIPX: Runner = {
  ecosystem: 'pypi',
  valued: new Set(['--python', '--index-url', '-i', '--pip-args', '--backend']),
  flags: new Set(['--no-cache', '-q', '--quiet', '-v', '--verbose', '--path']),
  packageOptions: new Set(['--spec']),
  commandAfterPackages: false,
};
const CONTAINER: Runner = {
  ecosystem: 'oci',
  valued: new Set(['-e', '--env', '-v', '--volume', '--name', '--network', '--net', '-p', '--publish', '-w', '--workdir', '-u', '--user', '--mount', '--env-file', '--label', '-l', '--entrypoint', '--platform', '--pull', '--memory', '-m', '--cpus', '--add-host', '--cap-add', '--cap-drop', '--security-opt', '--tmpfs', '--hostname', '-h', '--device', '--ulimit', '--user-ns', '--userns', '--log-driver', '--restart', '--shm-size', '--dns', '--pid', '--ipc']),
  flags: new Set(['-i', '--interactive', '-t', '--tty', '-it', '-ti', '--rm', '-d', '--detach', '--init', '--read-only', '-q', '--quiet', '--privileged']),
  packageOptions: new Set(),
  commandAfterPackages: false,
};

/** The packages a command line runs, or undefined: not a package runner, or not one read with certainty. */
export function launchPackages(command: string, args: readonly string[]): LaunchPackages | undefined {
  let program = programName(command);
  let words = args;
  // `cmd /c npx ...` on Windows runs the rest as a command line.
  if (program === 'cmd' && /^\/c$/i.test(args[0] ?? '')) [program, words] = [programName(args[1] ?? ''), args.slice(2)];
  const [first, ...rest] = words;
  switch (program) {
    case 'npx':
    case 'bunx':
      return packagesOf(NPX, words);
    case 'npm':
      return first === 'exec' || first === 'x' ? packagesOf(NPX, rest) : undefined;
    case 'pnpm':
    case 'yarn':
      return first === 'dlx' ? packagesOf(NPX, rest) : undefined;
    case 'pnpx':
      return packagesOf(NPX, words);
    case 'bun':
      return first === 'x' ? packagesOf(NPX, rest) : undefined;
    case 'uvx':
      return packagesOf(UVX, words);
    case 'uv':
      return first === 'tool' && rest[0] === 'run' ? packagesOf(UVX, rest.slice(1)) : undefined;
    case 'pipx':
      return first === 'run' ? packagesOf(PIPX, rest) : undefined;
    case 'docker':
    case 'podman':
      return first === 'run' ? packagesOf(CONTAINER, rest) : first === 'container' && rest[0] === 'run' ? packagesOf(CONTAINER, rest.slice(1)) : undefined;
    default:
      return undefined;
  }
}

function packagesOf(runner: Runner, words: readonly string[]): LaunchPackages | undefined {
  const named: string[] = [];
  let positional: string | undefined;
  for (let i = 0; i < words.length && positional === undefined; i++) {
    const word = words[i];
    if (word === '--') {
      positional = words[i + 1];
      break;
    }
    if (!word.startsWith('-')) {
      positional = word;
      break;
    }
    const eq = word.indexOf('=');
    const option = eq > 0 ? word.slice(0, eq) : word;
    if (runner.packageOptions.has(option)) {
      const value = eq > 0 ? word.slice(eq + 1) : words[++i];
      if (value === undefined) return undefined;
      named.push(value);
    } else if (runner.valued.has(option)) {
      if (eq < 0) i++;
    } else if (!runner.flags.has(option)) {
      return undefined; // an option it does not know (`-c`, `--call`): what runs cannot be read with certainty
    }
  }
  const runs = runner.commandAfterPackages && named.length > 0 ? named : positional === undefined ? named : [...named, positional];
  const names = runs.map((spec) => packageName(runner.ecosystem, spec));
  if (names.length === 0 || names.some((n) => n === undefined)) return undefined;
  return { ecosystem: runner.ecosystem, names: names as string[] };
}

/** A package spec without its version; undefined for what is not a registry package (a path, a URL, a git spec). */
function packageName(ecosystem: LaunchPackages['ecosystem'], spec: string): string | undefined {
  if (spec === '' || /^(\.|\/|~|[a-z]:[\\/]|[a-z+]+:\/\/|git\+|file:|github:)/i.test(spec)) return undefined;
  if (ecosystem === 'npm') {
    const at = spec.indexOf('@', 1); // a scope's own @ is the first character
    const name = at > 0 ? spec.slice(0, at) : spec;
    return /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name) ? name.toLowerCase() : undefined;
  }
  if (ecosystem === 'pypi') {
    const name = spec.split(/[=<>!~@[;\s]/, 1)[0];
    // PEP 503: names compare lower-case with runs of -, _ and . as one -.
    return /^[a-z0-9]([\w.-]*[a-z0-9])?$/i.test(name) ? name.toLowerCase().replace(/[-_.]+/g, '-') : undefined;
  }
  // An image without its tag or digest: `ghcr.io/org/image:1.2@sha256:...` is `ghcr.io/org/image`.
  const noDigest = spec.split('@', 1)[0];
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  const image = colon > slash ? noDigest.slice(0, colon) : noDigest;
  return /^[a-z0-9][\w./:-]*$/i.test(image) ? image.toLowerCase() : undefined;
}

/**
 * The program's name without a Windows extension (`npx.cmd` is `npx`), found on PATH. A command
 * with a folder in it is a file of someone's choosing (`./tools/npx`), whatever its name: no
 * runner, undefined (a `command` entry of the allowlist can still allow it by its path).
 */
function programName(command: string): string | undefined {
  if (/[\\/]/.test(command)) return undefined;
  return command.replace(/\.(cmd|exe|bat|ps1)$/i, '').toLowerCase();
}
