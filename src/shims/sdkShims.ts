// Stands in for `@modelcontextprotocol/client/_shims` in our bundles: we always pass
// our own `jsonSchemaValidator`, so the SDK's default (a second, eagerly compiling ajv) is never
// needed, and leaving it out keeps ~150 KB out of the bundle.
export const CORS_IS_POSSIBLE = false;

export class DefaultJsonSchemaValidator {
  constructor() {
    throw new Error('MCP Tool Host always passes its own jsonSchemaValidator.');
  }
}
