/**
 * Environment variables that change which code a program loads or runs, as the runtimes and tools
 * that start MCP servers honour them: the dynamic loader, Node and npm/npx, Python and uv/pip,
 * Ruby, Perl, Java, .NET, shells, git. A workspace that sets one can run its own code inside any
 * server (`NODE_OPTIONS=--require ./evil.js`): the launch prompt shows their values, marked.
 */
const CODE_LOADING = /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|NODE_OPTIONS|NODE_PATH|NODE_LOADER|npm_config_\w+|NPM_CONFIG_\w+|COREPACK_\w+|PYTHONPATH|PYTHONHOME|PYTHONSTARTUP|PYTHONUSERBASE|PYTHONINSPECT|PIP_\w+|UV_\w+|RUBYOPT|RUBYLIB|GEM_PATH|GEM_HOME|BUNDLE_GEMFILE|PERL5OPT|PERL5LIB|PERLLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|DOTNET_STARTUP_HOOKS|CORECLR_PROFILER\w*|BASH_ENV|ENV|ZDOTDIR|PROMPT_COMMAND|PATH|GIT_SSH_COMMAND|GIT_EXEC_PATH|GIT_CONFIG_\w+|DENO_\w+|BUN_\w+)$/i;

/** Whether setting this variable changes which code a program loads (CODE_LOADING). */
export function loadsCode(name: string): boolean {
  return CODE_LOADING.test(name);
}
