// Which images of a prompt a model gets: only the types models take, only when the bytes really
// are that type (a server's mime type is a claim, the first bytes are not), and within a count and
// a size, so a prompt cannot fill a request with images or pass other bytes off as one.

/** Images one prompt may send to the model; the rest are named. */
export const MAX_PROMPT_IMAGES = 10;
/** The most bytes of one image sent to the model (what the large model services take per image). */
export const MAX_PROMPT_IMAGE_BYTES = 5 * 1024 * 1024;

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
const startsWith = (bytes: Uint8Array, head: readonly number[]) => bytes.length >= head.length && head.every((b, i) => bytes[i] === b);

/** The image types models take, each with the check of its first bytes and the name of its format. */
const SIGNATURES: ReadonlyMap<string, { readonly format: string; readonly is: (bytes: Uint8Array) => boolean }> = new Map([
  ['image/png', { format: 'PNG', is: (b: Uint8Array) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) }],
  ['image/jpeg', { format: 'JPEG', is: (b: Uint8Array) => startsWith(b, [0xff, 0xd8, 0xff]) }],
  ['image/gif', { format: 'GIF', is: (b: Uint8Array) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a' }],
  ['image/webp', { format: 'WebP', is: (b: Uint8Array) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' }],
]);

/** A mime type as compared: lower case, without parameters; `image/jpg` is JPEG. */
function plainType(mimeType: string): string {
  const type = mimeType.split(';')[0].trim().toLowerCase();
  return type === 'image/jpg' ? 'image/jpeg' : type;
}

/** Counts what a prompt has sent so far: one per prompt. */
export interface ImageBudget {
  sent: number;
}

/**
 * Whether an image goes to the model, and as which type; else why not, in a phrase that follows
 * "not sent: ". Counts the image against `budget` when it goes.
 */
export function imageForModel(mimeType: string, bytes: Uint8Array, budget: ImageBudget): { readonly mimeType: string } | { readonly why: string } {
  const type = plainType(mimeType);
  const signature = SIGNATURES.get(type);
  if (!signature) return { why: `models take PNG, JPEG, GIF and WebP images, not ${type}` };
  if (!signature.is(bytes)) return { why: `its bytes are not a ${signature.format} image, as its type ${type} claims` };
  if (bytes.length > MAX_PROMPT_IMAGE_BYTES) return { why: `larger than the ${MAX_PROMPT_IMAGE_BYTES / (1024 * 1024)} MiB an image may be` };
  if (budget.sent >= MAX_PROMPT_IMAGES) return { why: `a prompt sends at most ${MAX_PROMPT_IMAGES} images` };
  budget.sent++;
  return { mimeType: type };
}
