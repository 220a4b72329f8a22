// Class: the table of variables that move a credential store (env-secrets.ts) agrees with the secret
// families: each row's default store is a secret, a path at or below the moved store is judged exactly as the
// same path at the default place, and a variable both tables hold is read the same way by both.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LOADING_VARIABLES } from "../../../src/policy/env-loads.ts";
import {
  CREDENTIAL_VARIABLES,
  type MovedStore,
  movedSecret,
  movedStores,
} from "../../../src/policy/env-secrets.ts";
import { isDenylistedPath } from "../../../src/policy/secret-paths.ts";

const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/).filter((s) => s !== "." && s !== "..");
const row = fc.constantFrom(...CREDENTIAL_VARIABLES);

describe("credential variables", () => {
  it("each row's default store (a directory's sample file) is a secret of the families", () => {
    for (const v of CREDENTIAL_VARIABLES) {
      const dir = v.standsFor.endsWith("/");
      expect(dir, `${v.name}: a directory row names a sample file`).toBe(v.holds !== undefined);
      expect(isDenylistedPath(`/home/u/${v.standsFor}${v.holds ?? ""}`), v.name).toBe(true);
    }
    expect(new Set(CREDENTIAL_VARIABLES.map((v) => v.name)).size).toBe(CREDENTIAL_VARIABLES.length);
  });

  it("a path below a moved directory store is a secret exactly when it is one at the default place", () => {
    fc.assert(
      fc.property(
        row,
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.array(segment, { maxLength: 3 }),
        (v, at, rest) => {
          const value = `/${at.join("/")}`;
          const [store] = movedStores({ [v.name]: value });
          expect(store?.path).toBe(value);
          if (store === undefined) return;
          if (!v.standsFor.endsWith("/")) {
            expect(movedSecret(store, value)).toBe(`~/${v.standsFor}`);
            if (rest.length > 0) expect(movedSecret(store, `${value}/${rest.join("/")}`)).toBeNull();
            return;
          }
          const below = rest.length === 0 ? (v.holds as string) : rest.join("/");
          const expected = isDenylistedPath(`~/${v.standsFor}${below}`);
          expect(movedSecret(store, `${value}/${below}`) !== null).toBe(expected);
          expect(movedSecret(store, `${value}x/${below}`)).toBeNull();
        },
      ),
    );
  });

  it("a relative value is the store below any directory a program runs in (fix17b)", () => {
    const [kube, hf] = movedStores({ KUBECONFIG: "kube.yaml", HF_HOME: "./hf" });
    expect([kube?.path, hf?.path, kube?.relative, hf?.relative]).toEqual(["kube.yaml", "hf", true, true]);
    expect(movedSecret(kube as MovedStore, "/w/sub/kube.yaml")).toBe("~/.kube/config");
    expect(movedSecret(kube as MovedStore, "/w/sub/kube.yaml.bak")).toBeNull();
    expect(movedSecret(hf as MovedStore, "/w/a/hf/token")).toBe("~/.cache/huggingface/token");
    expect(movedSecret(hf as MovedStore, "/w/a/hf")).toBeNull();
  });

  it("KUBECONFIG is a list; npm's variable is read in any case, as env-loads.ts reads them", () => {
    const stores = movedStores({ KUBECONFIG: "/a/one:/b/two", npm_config_userconfig: "/c/npmrc" });
    expect(stores.map((s) => s.path)).toEqual(["/a/one", "/b/two", "/c/npmrc"]);
    for (const v of CREDENTIAL_VARIABLES) {
      const loads = LOADING_VARIABLES.find((l) => l.name === v.name);
      if (loads === undefined) continue;
      expect(v.list?.source, v.name).toBe(loads.list?.source);
      expect(v.ignoreCase, v.name).toBe(loads.ignoreCase);
    }
  });
});
