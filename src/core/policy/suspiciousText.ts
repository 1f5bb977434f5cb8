/**
 * Signs that a tool description or server instructions try to steer the model or hide
 * something from the user (tool poisoning). Flags for the tooltip, never a verdict: the user
 * decides.
 */
const INSTRUCTION_PATTERNS: [RegExp, string][] = [
  [/\b(ignore|disregard|forget)\b.{0,40}\b(previous|prior|above|earlier|all)\b.{0,20}\b(instructions?|prompts?|rules?)\b/i, 'asks the model to ignore its instructions'],
  [/\b(do not|don't|never)\b.{0,30}\b(tell|inform|mention|show|reveal)\b.{0,30}\b(user|human)\b/i, 'asks the model to hide something from the user'],
  [/<\s*(important|system|instructions?|secret)\s*>/i, 'contains pseudo-tags such as <IMPORTANT>'],
  [/\b(before|after)\b.{0,40}\b(using|calling)\b.{0,40}\b(this|any|other)\b.{0,20}\btools?\b/i, 'tells the model how to use other tools'],
  [/(~\/\.ssh|id_rsa|\.env\b|\.aws\/credentials|api[_ -]?keys?|passwords?|private keys?)/i, 'mentions credentials or key files'],
  [/\b(send|upload|post|exfiltrate|forward)\b.{0,40}\b(to|at)\b.{0,20}(https?:\/\/|\b[\w-]+\.(com|net|org|io|example)\b)/i, 'asks to send data to an address'],
];
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\u001b\[|[\u{e0000}-\u{e007f}]/u;

export function suspiciousText(text: string | undefined): string[] {
  if (!text) return [];
  const flags = INSTRUCTION_PATTERNS.filter(([re]) => re.test(text)).map(([, why]) => why);
  if (HIDDEN.test(text)) flags.push('contains hidden characters (control, zero-width, bidirectional or tag characters), removed when shown');
  if (text.length > 4000) flags.push(`is unusually long (${text.length} characters)`);
  return flags;
}
