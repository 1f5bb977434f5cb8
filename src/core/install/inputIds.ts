/**
 * The `${input:<id>}` id of a value an installed server asks for: its server's name, a dot, and the
 * variable's own name, so one installed server never receives a value the user gave another (the
 * user's own servers share one value per id). Characters other than letters, digits, `.`, `_` and
 * `-` become `_`: a source's name cannot close the `${...}` or reach another id.
 */
export function installInputId(server: string, variable: string): string {
  const safe = (text: string) => text.replace(/[^\w.-]/g, '_').slice(0, 64) || '_';
  return `${safe(server)}.${safe(variable)}`;
}
