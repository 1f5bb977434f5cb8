/** What every prompt of a server during its calls carries besides its content (forms and links alike). */
export interface PromptContext {
  readonly server: string;
  /** The tools of that server being called when it asked (a server's request does not say which call it belongs to). */
  readonly calls?: readonly string[];
  /** The tasks those calls follow, if any (their rows say what they wait for). */
  readonly tasks?: readonly string[];
  /** Aborts when those calls have all ended, its reason a `CallEnd`: a request still waiting is dropped, one open is closed (cancel). */
  readonly callsEnded?: AbortSignal;
  /** When the call's total time limit runs out (`Date.now()` ms): the prompt says so when it is near. Time spent answering does not count against the idle timeout. */
  readonly endsAt?: number;
}
