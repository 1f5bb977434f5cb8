/** How many prompts (forms, links) one call may put to the user: past it, the server's further requests of that call are declined. */
export const MAX_PROMPTS_PER_CALL = 10;
/** At most this many input_required rounds one 2026-07-28 call may take (relayed ones too): past the prompts a call may raise, a round only loops. */
export const MAX_INPUT_ROUNDS = 2 * MAX_PROMPTS_PER_CALL;
