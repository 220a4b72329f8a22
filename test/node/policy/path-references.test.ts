// What the user's configuration files name by path (policy/path-references.ts, shell-sources.ts), on the
// shapes real start-up files have: Debian's and Fedora's ~/.bashrc, nvm's and Oh My Zsh's lines, ssh's
// relative and globbed Include, kubeconfig exec plug-ins, docker's credential helpers.
import { describe, expect, it } from "vitest";
import {
  dockerReferences,
  kubeReferences,
  type Reference,
  referencePattern,
  sshReferences,
  systemdReferences,
} from "../../../src/policy/path-references.ts";
import { shellSources } from "../../../src/policy/shell-sources.ts";

const HOME = "/home/u";

/** Whether any reference's pattern takes the path. */
const names = (refs: readonly Reference[], path: string) =>
  refs.some((r) => referencePattern(r.parts, r.below).test(path));

describe("shell start-up files' sources", () => {
  it("reads the literal, `~`, `$HOME`, assigned-variable and loop forms", () => {
    const refs = shellSources(
      [
        "if [ -f ~/.bash_aliases ]; then",
        "    . ~/.bash_aliases",
        "fi",
        'export NVM_DIR="$HOME/.nvm"',
        '[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"',
        "for rc in ~/.bashrc.d/*; do",
        '  if [ -f "$rc" ]; then . "$rc"; fi',
        "done",
        "source /opt/work/scripts/aliases.sh",
        "[ -f '/opt/quoted dir/x.sh' ] && source '/opt/quoted dir/x.sh'",
      ].join("\n"),
      HOME,
    );
    for (const path of [
      `${HOME}/.bash_aliases`,
      `${HOME}/.nvm/nvm.sh`,
      `${HOME}/.bashrc.d/10-work.sh`,
      "/opt/work/scripts/aliases.sh",
      "/opt/quoted dir/x.sh",
    ])
      expect(names(refs, path), path).toBe(true);
    expect(names(refs, "/opt/work/scripts/other.sh")).toBe(false);
    expect(names(refs, `${HOME}/.bashrc.d/sub/deeper.sh`)).toBe(false);
  });

  it("a part only known at run time matches by the rest; a wholly unknown name by a shell script's extension", () => {
    const refs = shellSources('source $ZSH/oh-my-zsh.sh\n. "$(brew --prefix)/etc/profile.d/z.sh"\n', HOME);
    expect(names(refs, "/any/where/oh-my-zsh.sh")).toBe(true);
    expect(names(refs, "/x/etc/profile.d/z.sh")).toBe(true);
    expect(names(refs, "/any/where/README.md")).toBe(false);
    const unknown = shellSources('. "$1"\n', HOME);
    expect(names(unknown, "/p/tools/env.sh")).toBe(true);
    expect(names(unknown, "/p/src/index.ts")).toBe(false);
  });

  it("a file bash's grammar cannot read (zsh, fish) is read line by line", () => {
    const zsh =
      "setopt autocd\nfor f (~/.zsh/*.zsh) source $f\nif (( $+commands[x] )) {\nsource ~/proj/env.zsh\n}\n";
    expect(names(shellSources(zsh, HOME), `${HOME}/proj/env.zsh`)).toBe(true);
    const fish = "if test -f ~/proj/conf.fish\n    source ~/proj/conf.fish\nend\n";
    expect(names(shellSources(fish, HOME), `${HOME}/proj/conf.fish`)).toBe(true);
  });

  it("nothing sourced, nothing named", () => {
    expect(shellSources("alias ll='ls -l'\necho . done\n", HOME)).toEqual([]);
  });

  it("a PATH assignment names its directories (fix17a), not `$PATH` or an unknown variable's", () => {
    const refs = shellSources('export PATH="$HOME/bin:$JAVA_HOME/bin:$PATH"\nPATH=$PATH:tools/bin\n', HOME);
    expect(names(refs, `${HOME}/bin/x`)).toBe(true);
    expect(names(refs, "/srv/app/tools/bin/git")).toBe(true);
    expect(names(refs, "/opt/jdk/bin/java")).toBe(false);
    expect(names(refs, "/srv/app/src/main.ts")).toBe(false);
    const fish = shellSources(
      "fish_add_path -g /srv/f/bin\nset -gx PATH /srv/g/bin $PATH\nset -l x /srv/h\n",
      HOME,
    );
    expect(names(fish, "/srv/f/bin/git")).toBe(true);
    expect(names(fish, "/srv/g/bin/ls")).toBe(true);
    expect(names(fish, "/srv/h/x")).toBe(false);
  });
});

describe("other configurations", () => {
  it("ssh: relative Include is in ~/.ssh, globs allowed, commands' programs", () => {
    const refs = sshReferences(
      'Include config.d/*.conf "/srv/proj/ssh config"\nHost x\n  ProxyCommand /srv/proj/bin/proxy %h %p\nMatch exec "/srv/proj/check.sh %h"\n',
      { home: HOME, base: `${HOME}/.ssh` },
    );
    for (const path of [
      `${HOME}/.ssh/config.d/work.conf`,
      "/srv/proj/ssh config",
      "/srv/proj/bin/proxy",
      "/srv/proj/check.sh",
    ])
      expect(names(refs, path), path).toBe(true);
    expect(names(refs, `${HOME}/.ssh/config.d/notes.txt`)).toBe(false);
  });

  it("systemd: Exec* with its prefixes and %h; EnvironmentFile", () => {
    const refs = systemdReferences(
      "[Service]\nExecStartPre=-%h/proj/pre.sh\nExecStart=@/srv/app/server srv\nEnvironmentFile=-/srv/app/.env\n",
      HOME,
    );
    for (const path of [`${HOME}/proj/pre.sh`, "/srv/app/server", "/srv/app/.env"])
      expect(names(refs, path), path).toBe(true);
  });

  it("kubeconfig exec: a relative command from the file's directory, a bare one on PATH", () => {
    const yaml =
      "users:\n- name: a\n  user:\n    exec:\n      command: ./bin/kube-creds\n- name: b\n  user:\n    exec:\n      command: aws-creds\n      args: [/srv/proj/token.py]\n";
    const refs = kubeReferences(yaml, { home: HOME, base: `${HOME}/.kube` }, "/usr/bin:/srv/proj/bin");
    for (const path of [`${HOME}/.kube/./bin/kube-creds`, "/srv/proj/bin/aws-creds", "/srv/proj/token.py"])
      expect(names(refs, path), path).toBe(true);
    expect(kubeReferences("users: [", { home: HOME, base: null }, "")).toEqual([]);
  });

  it("docker: credsStore and credHelpers are programs on PATH", () => {
    const refs = dockerReferences(
      '{"credsStore":"desktop","credHelpers":{"gcr.io":"gcloud"}}',
      HOME,
      "/usr/bin:/srv/proj/bin:",
    );
    expect(names(refs, "/srv/proj/bin/docker-credential-desktop")).toBe(true);
    expect(names(refs, "/srv/proj/bin/docker-credential-gcloud")).toBe(true);
    // An empty PATH entry is the working directory: any directory.
    expect(names(refs, "/elsewhere/docker-credential-gcloud")).toBe(true);
    expect(names(refs, "/srv/proj/bin/docker-compose")).toBe(false);
  });
});
