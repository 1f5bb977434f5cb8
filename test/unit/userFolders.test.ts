import * as assert from 'node:assert/strict';
import { credentialFilePath } from '../../src/cli/credentialStoreFile';
import { defaultCliAuditFile } from '../../src/core/calls/fileAuditLog';
import { userStateFolder } from '../../src/core/userFolders';

describe('the user\'s folders for what the CLI keeps (state: audit log, pins, eras, kept sign-ins)', () => {
  it('$XDG_STATE_HOME, ~/.local/state without it, %LOCALAPPDATA% on Windows', () => {
    assert.equal(userStateFolder({ XDG_STATE_HOME: '/x/state' }, 'linux', '/home/u'), '/x/state');
    assert.equal(userStateFolder({}, 'linux', '/home/u'), '/home/u/.local/state');
    assert.equal(userStateFolder({}, 'darwin', '/Users/u'), '/Users/u/.local/state');
    assert.equal(userStateFolder({ LOCALAPPDATA: 'D:\\Local' }, 'win32', 'C:\\Users\\u'), 'D:\\Local');
    assert.equal(userStateFolder({}, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Local');
  });

  it('attacker: a relative or empty $XDG_STATE_HOME or %LOCALAPPDATA% is ignored: the files would be read from the folder a command runs in (a repository could bring pins or sign-ins)', () => {
    for (const XDG_STATE_HOME of ['', '.state', 'repo/../state', './']) {
      assert.equal(userStateFolder({ XDG_STATE_HOME }, 'linux', '/home/u'), '/home/u/.local/state', JSON.stringify(XDG_STATE_HOME));
      assert.equal(defaultCliAuditFile({ XDG_STATE_HOME }, 'linux', '/home/u'), '/home/u/.local/state/mcp-tool-host/audit.jsonl');
      assert.equal(credentialFilePath({ XDG_STATE_HOME }, 'linux', '/home/u'), '/home/u/.local/state/mcp-tool-host/auth/credentials.json');
    }
    for (const LOCALAPPDATA of ['', 'AppData', '.\\x']) assert.equal(userStateFolder({ LOCALAPPDATA }, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Local');
  });
});
