import type { McpbManifestAny } from '@anthropic-ai/mcpb' with { 'resolution-mode': 'import' };
import { BundleError, loadMcpb } from './bundleErrors';

export type BundleManifest = McpbManifestAny;

/**
 * The manifest.json of a bundle, checked against the package's strict schema for the version it
 * declares (`manifest_version`, or the older `dxt_version`). A manifest that is not JSON, declares
 * a version the package does not know, or breaks its schema is a BundleError saying where.
 */
export async function parseManifest(bytes: Uint8Array): Promise<BundleManifest> {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    throw new BundleError(`The bundle's manifest.json is not valid JSON (${err instanceof Error ? err.message : String(err)}).`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new BundleError('The bundle\'s manifest.json is not a JSON object.');
  const { VERSIONED_MANIFEST_SCHEMAS: schemas } = await loadMcpb();
  const record = raw as Record<string, unknown>;
  const version = record.manifest_version ?? record.dxt_version;
  const known = Object.keys(schemas);
  if (typeof version !== 'string' || !known.includes(version)) {
    throw new BundleError(`The bundle's manifest.json declares manifest_version ${JSON.stringify(version ?? null)?.slice(0, 40)}; this version of MCP Tool Host reads ${known.join(', ')}.`);
  }
  const result = schemas[version as keyof typeof schemas].safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new BundleError(`The bundle's manifest.json is invalid: ${issues.join('; ').slice(0, 600)}.`);
  }
  return result.data as BundleManifest;
}
