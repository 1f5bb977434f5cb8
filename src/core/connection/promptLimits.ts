/** How many prompts (forms, links) one call may put to the user: past it, the server's further requests of that call are declined. */
export const MAX_PROMPTS_PER_CALL = 10;
