// Round 22's python over-asks (fix23b): `python3 -c 'import uuid; print(uuid.uuid4())'` and `python3 -m site
// --user-site`. Both import the standard library's files with the working directory first on sys.path (-c and
// -m put it there), so each is judged as `python3 -m json.tool` is: allowed unless the directory holds a
// module by a standard library's name, or what site loads is the workspace's (proven below in real python).
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { profileActions, RUN, runPython, workspacesUnder } from "./python-proof.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa22py-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const workspace = workspacesUnder(base);

const actions = profileActions(base);

const UUID = "python3 -c 'import uuid; print(uuid.uuid4())'";

describe("python3 -c printing a uuid4: the attacks (written first)", () => {
  // enum is loaded at start-up already; uuid and platform are not (its `platform.system()`).
  it("a project's uuid.py or platform.py runs in its place (the proof)", () => {
    for (const name of ["uuid.py", "platform.py"]) {
      const run = runPython(base, workspace({ [name]: RUN }), "-c", "import uuid; print(uuid.uuid4())");
      expect(run.stdout, name).toContain("PROJECT CODE RAN");
    }
  });

  it.each(["uuid.py", "enum.py", "platform.py", "_uuid.py"])("a workspace holding %s asks", (name) => {
    expect(actions(UUID, workspace({ [name]: RUN }))).not.toContain("allow");
  });

  it.each([
    "python3 -c 'import uuid; print(uuid.uuid1())'",
    "python3 -c 'import uuid; print(uuid.uuid4()); import os'",
    "python3 -c 'import uuid, os; print(uuid.uuid4())'",
    "python3 -i -c 'import uuid; print(uuid.uuid4())'",
    "python3 -c 'import uuid; print(uuid.uuid4())' extra",
    "python3 -c 'import uuid; print(uuid.uuid4())' > .git/HEAD",
  ])("%s still asks", (command) => {
    expect(actions(command, workspace())).not.toContain("allow");
  });

  it("asks while site would load the workspace's code", () => {
    const ws = workspace({ "lib/x.py": "" });
    expect(actions(UUID, ws, { PYTHONPATH: join(ws, "lib") })).not.toContain("allow");
  });
});

describe("python3 -c printing a uuid4 is allowed", () => {
  it.each([
    UUID,
    'python3 -c "import uuid; print(uuid.uuid4().hex)"',
    "python -c 'import uuid;print(uuid.uuid4())'",
  ])("%s is allowed under every profile", (command) => {
    expect(actions(command, workspace({ "src/app.py": RUN }))).toEqual(["allow", "allow", "allow"]);
  });
});

describe("python3 -m site", () => {
  // site itself is imported at start-up, so runpy runs that module, not a project's site.py; any other
  // standard-library name in the directory asks, as for `python3 -m json.tool`.
  it.each([
    ["python3 -m site --user-site", { "site.py": RUN }],
    ["python3 -m site", { "json.py": RUN }],
    ["python3 -m site --user-site x", {}],
    ["python3 -m site --user-sit", {}],
    ["python3 -m site --help", {}],
  ] as const)("%s asks (%o)", (command, files) => {
    expect(actions(command, workspace(files))).not.toContain("allow");
  });

  it.each(["python3 -m site --user-site", "python3 -m site --user-base", "python3 -m site"])(
    "%s is allowed under every profile",
    (command) => {
      expect(actions(command, workspace())).toEqual(["allow", "allow", "allow"]);
    },
  );
});
