// The include and source readers as properties: on any text they never throw, and every path a
// configuration names (a shell's `source`/`.` in any spelling, ssh's Include, git's include chain) is
// among what they return, whatever lines surround it. Git's chain is checked against git itself: every
// file real `git config --list --show-origin` reads is one the reader follows.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize, relative } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { namedPaths, StampedReader } from "../../../src/companion/guards/config-references.ts";
import { type Reference, referencePattern, sshReferences } from "../../../src/policy/path-references.ts";
import { shellSources } from "../../../src/policy/shell-sources.ts";

const HOME = "/home/u";
const names = (refs: readonly Reference[], path: string) =>
  refs.some((r) => referencePattern(r.parts, r.below).test(path));

const segment = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,7}$/).filter((s) => s !== "." && s !== "..");
const segments = fc.array(segment, { minLength: 1, maxLength: 4 });

/** Lines a start-up file has around its sources, real and random (no quote, `$`, `\\` or heredoc to span lines). */
const noise = fc.oneof(
  fc.constantFrom(
    'export PATH="$HOME/bin:$PATH"',
    "alias ll='ls -l'",
    "if [ -f x ]; then",
    "fi",
    "for f in a b; do",
    "done",
    "setopt autocd",
    "if test -f x; end",
    "[[ $- == *i* ]] || return",
    'eval "$(pyenv init -)"',
    "case $- in *i*) ;; *) return;; esac",
    "f() {",
    "}",
    "",
  ),
  fc.string({ maxLength: 30 }).map((s) => s.replace(/["'`$\\<\n]/g, " ")),
);

/** A sourced absolute path and one way of writing it in a start-up file. */
const sourced = fc
  .tuple(
    segments,
    fc.constantFrom("plain", "dq", "sq", "tilde", "home", "braced"),
    fc.constantFrom("source", "."),
  )
  .map(([segs, form, verb]) => {
    const rest = segs.join("/");
    const written = {
      plain: `/opt/${rest}`,
      dq: `"/opt/${rest}"`,
      sq: `'/opt/${rest}'`,
      tilde: `~/${rest}`,
      home: `$HOME/${rest}`,
      braced: `"\${HOME}/${rest}"`,
    }[form];
    const path = form === "plain" || form === "dq" || form === "sq" ? `/opt/${rest}` : `${HOME}/${rest}`;
    return { line: `${verb} ${written}`, path };
  });

describe("reading configurations never throws and never loses a named path", () => {
  it("shell start-up files", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(noise, sourced), { maxLength: 12 }), (lines) => {
        const text = lines.map((l) => (typeof l === "string" ? l : l.line)).join("\n");
        const refs = shellSources(text, HOME);
        for (const l of lines)
          if (typeof l !== "string") expect(names(refs, l.path), `${text}\n→ ${l.path}`).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("ssh Include, relative ones in ~/.ssh", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            noise,
            fc.tuple(segments, fc.boolean(), fc.constantFrom("Include ", "include=", "  Include\t")),
          ),
          { maxLength: 10 },
        ),
        (lines) => {
          const text = lines
            .map((l) => (typeof l === "string" ? l : `${l[2]}${l[1] ? "/srv/" : ""}${l[0].join("/")}`))
            .join("\n");
          const refs = sshReferences(text, { home: HOME, base: `${HOME}/.ssh` });
          for (const l of lines)
            if (typeof l !== "string") {
              const path = l[1] ? `/srv/${l[0].join("/")}` : `${HOME}/.ssh/${l[0].join("/")}`;
              expect(names(refs, path), `${text}\n→ ${path}`).toBe(true);
            }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("git's include chain, against git", () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-git-includes-")));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  let run = 0;

  it("every file git reads is one the reader follows", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(segments, fc.constantFrom("absolute", "relative", "tilde"), fc.boolean()), {
          minLength: 1,
          maxLength: 5,
        }),
        (chain) => {
          const home = join(base, `h${run++}`);
          let from = join(home, ".gitconfig");
          const files: string[] = [];
          // Each file includes the next: by an absolute path, one relative to itself, or `~/`.
          for (const [segs, form, conditional] of chain) {
            const target = join(home, "cfg", ...segs, "inc");
            const written = {
              absolute: target,
              relative: relative(dirname(from), target),
              tilde: `~/${relative(home, target)}`,
            }[form];
            const section = conditional ? `[includeIf "gitdir:${base}/"]` : "[include]";
            mkdirSync(dirname(from), { recursive: true });
            writeFileSync(from, `[user]\n\tname = n${files.length}\n${section}\n\tpath = ${written}\n`);
            files.push(from);
            from = target;
          }
          mkdirSync(dirname(from), { recursive: true });
          writeFileSync(from, "[core]\n\tpager = less\n");
          mkdirSync(join(home, "repo"), { recursive: true });
          const r = spawnSync("git", ["config", "--list", "--show-origin"], {
            cwd: join(home, "repo"),
            env: {
              HOME: home,
              GIT_CONFIG_NOSYSTEM: "1",
              PATH: process.env.PATH,
              GIT_CEILING_DIRECTORIES: home,
            },
            encoding: "utf8",
          });
          const read = new Set([...r.stdout.matchAll(/^file:(\S+)\t/gm)].map((m) => m[1] as string));
          const refs = namedPaths(new StampedReader(), { HOME: home, GIT_CONFIG_NOSYSTEM: "1" }, home);
          for (const file of read)
            if (file !== join(home, ".gitconfig"))
              expect(names(refs, normalize(file)), `${file}\n${r.stdout}`).toBe(true);
          expect(read.size).toBeGreaterThan(0);
        },
      ),
      { numRuns: 25 },
    );
  });
});
