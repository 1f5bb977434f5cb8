/** The section of every setting of ours (`mcpToolHost.*`): a module of its own, so any bundle may copy it. */
export const SECTION = 'mcpToolHost';
