/**
 * A task ended without a result (the server failed or cancelled it): the server's answer, not a
 * lost connection. Told by its mark, not a class: it is thrown in the session runtime, a lazy
 * bundle of its own, and caught by the pipeline in another.
 */
export function taskEnded(message: string): Error {
  return Object.assign(new Error(message), { taskEnded: true });
}

export function isTaskEnded(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { taskEnded?: unknown }).taskEnded === true;
}
