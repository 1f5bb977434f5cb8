/** The variable that gives the CLI an `${input:id}` value starts so (cli/workspace.ts's inputVariable). */
export const INPUT_VARIABLE_PREFIX = 'MCP_TOOL_HOST_INPUT_';
/** The variable `mcp-tool-host add` names for a server's secret starts so (cli/registryAdd.ts). */
export const SERVER_SECRET_PREFIX = 'MCP_INPUT_';

/**
 * The variables that hand one server's secret to the host: no server inherits them, or every server
 * would read every other's token. The server they are for names its own in its `env` (launch.ts).
 */
export const ONE_SERVERS_SECRET = new RegExp(`^(?:${INPUT_VARIABLE_PREFIX}|${SERVER_SECRET_PREFIX})`, 'i');
