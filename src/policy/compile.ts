// compilePolicy: every layer file parsed, validated and compiled at once; any error anywhere
// fails the whole load, so there is never a partial policy.

import {
  type CompiledPolicy,
  type CompileResult,
  type LoadedSource,
  makeRuleSet,
  type RuleSet,
} from "./compiled.ts";
import { parseConfigText } from "./config-parse.ts";
import type { PermissionsConfig } from "./config-schema.ts";
import { modeParts, normalizeAction } from "./config-schema.ts";
import {
  buildRuleTree,
  conditionErrorsOf,
  flattenRuleTree,
  mergeRuleTrees,
  type RuleNode,
  restrictiveOnly,
} from "./rule-tree.ts";
import { actionRank, type PolicyLoadError, type PolicySource, type SourceLayer } from "./types.ts";

interface Loaded {
  source: PolicySource;
  config: PermissionsConfig;
  tree: RuleNode[];
}

const LAYER_ORDER: Record<SourceLayer, number> = { agent: 0, user: 1, project: 2, account: 3 };

const MODE_RANK = { permissive: 0, prompt: 1, strict: 2 } as const;

export function compilePolicy(sources: PolicySource[]): CompileResult {
  const errors: PolicyLoadError[] = [];
  const loaded: Loaded[] = [];
  for (const source of sources) {
    const parsed = parseConfigText(source.path, source.text);
    if ("errors" in parsed) {
      const fileErrors = [...parsed.errors];
      if (parsed.written) {
        const { raw, locate } = parsed.written;
        conditionErrorsOf(raw.rules, { path: source.path, locate }, fileErrors);
      }
      // Schema and condition problems read top to bottom, as the file does.
      errors.push(...fileErrors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
      continue;
    }
    const tree = buildRuleTree(
      parsed.config.rules ?? [],
      { layer: source.layer, path: source.path, locate: parsed.locate },
      errors,
    );
    loaded.push({ source, config: parsed.config, tree });
  }
  if (errors.length > 0) return { ok: false, errors };
  // Layers are applied lowest first whatever order the caller listed them in.
  loaded.sort((a, b) => LAYER_ORDER[a.source.layer] - LAYER_ORDER[b.source.layer]);

  let localTree: RuleNode[] = [];
  let projectTree: RuleNode[] | null = null;
  let accountTree: RuleNode[] | null = null;
  const loadedSources: LoadedSource[] = [];
  let defaultAction: CompiledPolicy["defaultAction"] = "deny";
  let defaultFrom = "built-in default (deny)";
  let headlessAsk: CompiledPolicy["headlessAsk"] = "deny";
  let mode: CompiledPolicy["mode"] = "prompt";
  let confirmTimeoutMs: number | null = null;
  const hiddenTools = new Map<string, { layer: SourceLayer; path: string }>();
  const futureCommands: CompiledPolicy["futureCommands"][number][] = [];
  let ungatedForbiddenBy: string | null = null;
  const modes: { mode: "compose" | "sole"; layer: SourceLayer; path: string }[] = [];

  for (const { source, config, tree } of loaded) {
    const trusted = source.layer !== "project" || source.trusted === true;
    const ignoredAllowRules: string[] = [];
    if (source.layer === "account") {
      accountTree = mergeRuleTrees(accountTree ?? [], tree);
    } else if (source.layer === "project") {
      projectTree = mergeRuleTrees(projectTree ?? [], tree);
      if (trusted) localTree = mergeRuleTrees(localTree, tree);
      else restrictiveOnly(tree, ignoredAllowRules);
    } else {
      localTree = mergeRuleTrees(localTree, tree);
    }
    if (config.default_action !== undefined) {
      const next = normalizeAction(config.default_action) as CompiledPolicy["defaultAction"];
      // An untrusted project may only make the fallback stricter.
      if (trusted || actionRank(next) > actionRank(defaultAction)) {
        defaultAction = next;
        defaultFrom = `default_action of ${source.path}`;
      }
    }
    if (config.headless_ask !== undefined && (trusted || config.headless_ask === "deny")) {
      headlessAsk = config.headless_ask;
    }
    const named = modeParts(config.mode);
    // An untrusted project may only make the mode stricter (permissive < prompt < strict).
    if (named.policy !== undefined && (trusted || MODE_RANK[named.policy] > MODE_RANK[mode]))
      mode = named.policy;
    if (config.timeout !== undefined && trusted) confirmTimeoutMs = config.timeout;
    for (const tool of config.hidden_tools ?? []) {
      if (!hiddenTools.has(tool)) hiddenTools.set(tool, { layer: source.layer, path: source.path });
    }
    // Forbidding is a restriction, so any layer (an untrusted project too) may do it; allowing changes nothing.
    if (config.sessions?.allow_ungated === false && ungatedForbiddenBy === null)
      ungatedForbiddenBy = source.path;
    // A warm runs a command: only a trusted layer may name one.
    if (trusted) futureCommands.push(...(config.futures?.commands ?? []));
    if (named.judge !== undefined) modes.push({ mode: named.judge, layer: source.layer, path: source.path });
    loadedSources.push({ layer: source.layer, path: source.path, trusted, ignoredAllowRules });
  }

  const set = (tree: RuleNode[] | null): RuleSet | null =>
    tree === null ? null : makeRuleSet(flattenRuleTree(tree));
  return {
    ok: true,
    policy: {
      local: set(localTree) ?? makeRuleSet([]),
      project: set(projectTree),
      account: set(accountTree),
      defaultAction,
      defaultFrom,
      headlessAsk,
      mode,
      hiddenTools,
      confirmTimeoutMs,
      futureCommands,
      allowUngated: ungatedForbiddenBy === null,
      ungatedForbiddenBy,
      soleFrom: soleModeFrom(modes),
      sources: loadedSources,
    },
  };
}

/**
 * `mode: sole` holds when the user's own files or the account policy choose it and no file says `compose`:
 * dropping the agent's own check loosens, so a project file (even a trusted one) cannot choose it, and any
 * file saying `compose` keeps the stricter mode.
 */
function soleModeFrom(modes: readonly { mode: "compose" | "sole"; layer: SourceLayer; path: string }[]) {
  if (modes.some((m) => m.mode === "compose")) return null;
  return modes.find((m) => m.mode === "sole" && m.layer !== "project")?.path ?? null;
}
