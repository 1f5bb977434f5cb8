/** Tokens one result may put before the model unless a setting says otherwise (Claude Code warns at 10,000 tokens of MCP output). */
export const DEFAULT_RESULT_TOKENS = 10_000;
/** The least and most a result budget may be, wherever it is set (a setting, a server's entry, the CLI's flag). */
export const MIN_RESULT_TOKENS = 500;
export const MAX_RESULT_TOKENS = 1_000_000;
