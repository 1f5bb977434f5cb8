// `npm run test:desktop`: the same extension-host suite on desktop VS Code, through
// @vscode/test-electron (which downloads VS Code, so it needs a network this CI lacks).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../../..');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-tool-host-ws-'));
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(__dirname, 'index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: { HOST_TEST_RESULTS: path.join(root, 'test-results', 'host-tests-desktop.json') },
  });
}

main().catch((err: unknown) => {
  console.error('Desktop extension-host tests failed:', err);
  process.exit(1);
});
