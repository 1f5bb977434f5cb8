import type * as vscode from 'vscode';
import type { SecretStore } from '../../core/auth/ports';

/** The core's SecretStore over VS Code's SecretStorage (the OS keychain). */
export function secretStoreOf(secrets: vscode.SecretStorage): SecretStore {
  return {
    get: async (key) => secrets.get(key),
    store: async (key, value) => secrets.store(key, value),
    delete: async (key) => secrets.delete(key),
  };
}
