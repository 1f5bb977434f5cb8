import type { StdioLaunch } from '../transport/commandLine';
import type { ResolvedOAuth } from './oauthConfig';
import type { SandboxSettings } from './sandboxConfig';

/** A launch with every variable resolved: what actually runs or is contacted. */
export type ResolvedLaunch = (
  | { readonly type: 'stdio'; readonly launch: StdioLaunch; readonly sandbox?: SandboxSettings }
  | { readonly type: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly oauth?: ResolvedOAuth }
) & {
  /** Secret values substituted into the launch (`${input:...}`): masked wherever it is shown. */
  readonly secrets?: readonly string[];
};
