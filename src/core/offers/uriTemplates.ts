import { loadSdk } from '../packages/load';
import { shownName } from '../render/sanitize';

/** Longest template or expanded URI we take: a URI is a line in a list, not a document. */
const MAX_URI_CHARS = 8192;

/** One variable of an RFC 6570 template and how its expression expands it. */
interface TemplateVariable {
  readonly name: string;
  /** `+` and `#` keep reserved characters (`/`, `?`) as they are: a value there can add path parts. */
  readonly operator: string;
}

/** The variables of a template, in order, or why it cannot be read. */
export function templateVariables(template: string): readonly string[] | { readonly problem: string } {
  const parsed = parseTemplate(template);
  return 'problem' in parsed ? parsed : [...new Set(parsed.map((v) => v.name))];
}

/**
 * The URI `template` gives for `values` (RFC 6570, through the SDK's UriTemplate): in a simple
 * expansion (`{x}`) every value is percent-encoded, so `/`, `?` or `../` stay inside their part;
 * where the template itself asks for reserved expansion (`{+x}`, `{#x}`) a value may hold `/` but
 * never a `..` segment. A value for a variable the template does not name, or a path variable left
 * empty, is a problem in words; query variables (`{?x}`, `{&x}`) may be left out.
 */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): { readonly uri: string } | { readonly problem: string } {
  const parsed = parseTemplate(template);
  if ('problem' in parsed) return parsed;
  const names = new Set(parsed.map((v) => v.name));
  for (const name of Object.keys(values)) {
    if (!names.has(name)) return { problem: `The template has no variable "${shownName(name)}" (it has ${[...names].map((n) => `"${shownName(n)}"`).join(', ') || 'none'}).` };
    if (typeof values[name] !== 'string') return { problem: `The value of "${shownName(name)}" is not text.` };
  }
  for (const variable of parsed) {
    const value = values[variable.name];
    const optional = variable.operator === '?' || variable.operator === '&';
    if (!optional && (value === undefined || value === '')) return { problem: `"${shownName(variable.name)}" needs a value.` };
    if ((variable.operator === '+' || variable.operator === '#') && value !== undefined && /(^|[/\\])\.\.?([/\\]|$)/.test(safeDecode(value))) {
      return { problem: `The value of "${shownName(variable.name)}" holds a "." or ".." path segment, which would change where the URI points.` };
    }
  }
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value !== '' || !parsed.some((v) => v.name === name && (v.operator === '?' || v.operator === '&'))) given[name] = value;
  let uri: string;
  try {
    uri = new (loadSdk().UriTemplate)(template).expand(given);
  } catch (err) {
    return { problem: `The template could not be filled in: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (uri.length > MAX_URI_CHARS) return { problem: `The URI would be ${uri.length} characters long; at most ${MAX_URI_CHARS} are taken.` };
  return { uri };
}

function parseTemplate(template: string): readonly TemplateVariable[] | { readonly problem: string } {
  if (template.length > MAX_URI_CHARS) return { problem: `The template is ${template.length} characters long; at most ${MAX_URI_CHARS} are taken.` };
  const variables: TemplateVariable[] = [];
  let at = 0;
  for (;;) {
    const open = template.indexOf('{', at);
    const close = template.indexOf('}', at);
    if (open === -1) {
      if (close !== -1) return { problem: 'The template has a "}" without its "{".' };
      return variables;
    }
    if (close !== -1 && close < open) return { problem: 'The template has a "}" without its "{".' };
    const end = template.indexOf('}', open);
    if (end === -1) return { problem: 'The template has a "{" that is never closed.' };
    const body = template.slice(open + 1, end);
    const operator = /^[+#./;?&]/.test(body) ? body[0] : '';
    for (const spec of body.slice(operator.length).split(',')) {
      const name = spec.replace(/(\*|:\d{1,4})$/, '');
      if (!/^(?:[A-Za-z0-9_.]|%[0-9A-Fa-f]{2})+$/.test(name)) return { problem: `The template's variable "${shownName(name)}" is not a valid name.` };
      variables.push({ name, operator });
    }
    at = end + 1;
  }
}

/** The value as a reader would take it: percent escapes decoded, when they decode. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
