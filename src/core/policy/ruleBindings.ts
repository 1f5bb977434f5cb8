import type { ToolPin } from './toolPin';
import type { RuleBindingLookup } from './ruleDecision';

/** Where bindings persist (extension state beside the grants; a file in the CLI; memory in tests). */
export interface RuleBindingPersistence {
  load(): Record<string, ToolPin>;
  save(bindings: Readonly<Record<string, ToolPin>>): void;
}

/**
 * Which tool definition each allow rule allowed (trust on first use, per rule and tool, as a
 * grant keeps its pin): the first call a rule allows binds it; a later call with a different
 * definition asks and shows what changed, and the user's approval binds the new definition.
 */
export class RuleBindings implements RuleBindingLookup {
  private _bindings: Record<string, ToolPin>;

  constructor(private readonly _persistence: RuleBindingPersistence) {
    this._bindings = _persistence.load();
  }

  pinOf(key: string): ToolPin | undefined {
    return Object.hasOwn(this._bindings, key) ? this._bindings[key] : undefined;
  }

  bind(key: string, pin: ToolPin): void {
    this._bindings = { ...this._bindings, [key]: pin };
    this._persistence.save(this._bindings);
  }

  clear(): void {
    this._bindings = {};
    this._persistence.save({});
  }
}

export function memoryRuleBindings(initial: Record<string, ToolPin> = {}): RuleBindingPersistence {
  let stored = { ...initial };
  return { load: () => ({ ...stored }), save: (b) => void (stored = { ...b }) };
}
