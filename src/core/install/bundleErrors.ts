/**
 * A bundle that cannot be installed, with the one reason why (nothing was written). It loads with
 * dist/install.js, not at activation, so it extends Error rather than McpHostError: errors.ts holds
 * classes and may not be copied into a second bundle (esbuild.mjs). Surfaces show its message.
 */
export class BundleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BundleError';
  }
}

/** The bundle parts of `@anthropic-ai/mcpb` (an ES module: loaded with `import()`). */
export type McpbModule = typeof import('@anthropic-ai/mcpb', { with: { 'resolution-mode': 'import' } });

let mcpb: Promise<McpbModule> | undefined;
/** Loads the package once, on the first bundle. */
export function loadMcpb(): Promise<McpbModule> {
  return (mcpb ??= import('@anthropic-ai/mcpb'));
}
