// Class: the secret denylist by family. Each family finds its files wherever they sit, names itself
// for explain, and leaves source files named after what they handle (env.ts) alone.

import { generateKeyPairSync } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { holdsPrivateKey, PrivateKeyScan, SECRET_FAMILIES } from "../../../src/policy/secret-families.ts";
import {
  denylistedDir,
  denylistedInWalk,
  globMayBeDenylisted,
  isDenylistedPath,
  secretFamilyOf,
} from "../../../src/policy/secret-paths.ts";

describe("secret families", () => {
  it.each([
    [".env", "dotenv"],
    // Red team, round 3: token stores under innocent names.
    ["token.json", "application and service tokens"],
    ["client_secret_1234.apps.googleusercontent.com.json", "application and service tokens"],
    ["api/local.settings.json", "application and service tokens"],
    ["/home/dev/.config/github-copilot/apps.json", "application and service tokens"],
    ["/home/dev/.cache/huggingface/token", "application and service tokens"],
    ["/home/dev/.config/rclone/rclone.conf", "application and service tokens"],
    ["/home/dev/.m2/settings.xml", "application and service tokens"],
    ["/home/dev/.gradle/gradle.properties", "application and service tokens"],
    ["/home/dev/.kaggle/kaggle.json", "application and service tokens"],
    ["/home/dev/.databrickscfg", "application and service tokens"],
    ["/home/dev/.config/sops/age/keys.txt", "application and service tokens"],
    ["prod.env", "dotenv"],
    [".env-prod", "dotenv"],
    [".env.production.local", "dotenv"],
    ["docker/app.env", "dotenv"],
    ["config/staging.env.backup", "dotenv"],
    [".envrc", "dotenv"],
    [".envs/.production/.django", "dotenv"],
    [".dev.vars", "dotenv"],
    ["/home/dev/.s3cfg", "cloud CLI credentials"],
    ["/home/dev/.aws/credentials", "cloud CLI credentials"],
    ["/home/dev/.aws/config", "cloud CLI credentials"],
    ["/home/dev/.config/gcloud/application_default_credentials.json", "cloud CLI credentials"],
    ["/home/dev/.azure/msal_token_cache.json", "cloud CLI credentials"],
    ["/home/dev/.config/doctl/config.yaml", "cloud CLI credentials"],
    ["/home/dev/.oci/config", "cloud CLI credentials"],
    ["/home/dev/.boto", "cloud CLI credentials"],
    ["/home/dev/.terraform.d/credentials.tfrc.json", "cloud CLI credentials"],
    ["infra/prod.tfvars", "infrastructure state and variables"],
    ["infra/prod.auto.tfvars.json", "infrastructure state and variables"],
    ["terraform.tfstate", "infrastructure state and variables"],
    ["/home/dev/.kube/config", "cluster and registry configuration"],
    ["/home/dev/.docker/config.json", "cluster and registry configuration"],
    ["/home/dev/.config/gh/hosts.yml", "cluster and registry configuration"],
    [".npmrc", "package registry tokens"],
    ["/home/dev/.pypirc", "package registry tokens"],
    ["/home/dev/.ssh/id_rsa", "SSH and signing keys"],
    ["/home/dev/.ssh/config", "SSH and signing keys"],
    ["certs/server.key", "SSH and signing keys"],
    ["/home/dev/.netrc", "login credentials"],
    [".git-credentials", "login credentials"],
    ["config/secrets.yml", "login credentials"],
    [".git/config", "repository configuration"],
    // A submodule's or worktree's configuration carries the same CI token (red team).
    [".git/modules/sub/config", "repository configuration"],
    ["/w/.git/modules/libs/sub/config", "repository configuration"],
    [".git/modules/a/modules/b/config", "repository configuration"],
    [".git/config.worktree", "repository configuration"],
    [".git/worktrees/wt1/config.worktree", "repository configuration"],
    [".git/modules/sub/config.worktree", "repository configuration"],
    ["/proc/self/environ", "process environment and history"],
    ["/home/dev/.bash_history", "process environment and history"],
  ])("%s is a secret of the %s family", (path, family) => {
    expect(isDenylistedPath(path)).toBe(true);
    expect(secretFamilyOf(path)?.family).toBe(family);
  });

  it.each([
    "src/env.ts",
    "src/environment.ts",
    "src/config/env.js",
    ".env.example",
    ".env.sample",
    "config/secrets.example.yml",
    "config/secrets.yml.example",
    "app.env.dist",
    "prod.env.template",
    "docs/env.md",
    "src/.env.ts",
    "src/secrets.ts",
    "environment.yml",
    ".venv/bin/python",
    "venv/lib/site.py",
    "package.json",
    "docs/aws.md",
    "src/aws/client.ts",
  ])("%s is not a secret", (path) => {
    expect(isDenylistedPath(path)).toBe(false);
    expect(secretFamilyOf(path)).toBeNull();
  });

  it("globs that could reach a new family are secret-like", () => {
    expect(globMayBeDenylisted("*.env")).toBe(true);
    expect(globMayBeDenylisted("docker/*.env")).toBe(true);
    expect(globMayBeDenylisted(".dev.*")).toBe(true);
    expect(globMayBeDenylisted("src/*.ts")).toBe(false);
  });

  it("every family has a reason and patterns, and no pattern is in two families", () => {
    const seen = new Set<string>();
    for (const f of SECRET_FAMILIES) {
      expect(f.why.length).toBeGreaterThan(10);
      expect(f.patterns.length).toBeGreaterThan(0);
      for (const p of f.patterns) {
        expect(seen.has(p), p).toBe(false);
        seen.add(p);
      }
    }
  });
});

describe("private keys by content", () => {
  it.each([
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n",
    "notes\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n",
    "-----BEGIN PRIVATE KEY-----",
    "-----BEGIN EC PRIVATE KEY-----",
    "-----BEGIN ENCRYPTED PRIVATE KEY-----",
    "-----BEGIN PGP PRIVATE KEY BLOCK-----",
    // Red team, round 3: key files with no PEM header.
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n",
    "PuTTY-User-Key-File-2: ssh-rsa\n",
    '{"kty":"RSA","n":"0vx7","e":"AQAB","d":"X4cT","p":"83i","q":"3dfO"}',
    '{"keys":[{"kty": "EC", "crv": "P-256", "x": "f83O", "y": "x_FE", "d": "jpsQ"}]}',
    '{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg"}',
    "# public key: age1ql3z\nAGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ\n",
  ])("%j holds a private key", (text) => {
    expect(holdsPrivateKey(text)).toBe(true);
  });
  it.each([
    "-----BEGIN PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----",
    "ssh-ed25519 AAAA dev@box",
    "PRIVATE KEY",
    '{"kty":"RSA","n":"0vx7","e":"AQAB"}',
    '{"d":"2024-01-01","k":"v"}',
    "PuTTY-User-Key-File is a format",
  ])("%j does not", (text) => {
    expect(holdsPrivateKey(text)).toBe(false);
  });
});

describe("the walk's split denylist", () => {
  it("never misses a path isDenylistedPath catches", () => {
    const seg = fc.constantFrom(
      "src",
      ".git",
      "config",
      ".ssh",
      "secrets",
      ".aws",
      "docker",
      "app.env",
      ".env",
      "a.ts",
      "hosts.yml",
      ".config",
      "gh",
      ".docker",
      "config.json",
      "credentials",
      ".gem",
      "notes.txt",
      "id_rsa",
      "prod.tfvars",
    );
    fc.assert(
      fc.property(fc.array(seg, { minLength: 0, maxLength: 4 }), seg, (dirs, name) => {
        const dir = dirs.join("/");
        const full = dir === "" ? name : `${dir}/${name}`;
        if (isDenylistedPath(full)) expect(denylistedInWalk(dir, denylistedDir(dir), name)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

// Red team round 4, finding 7: a name with `secret(s)` as a dotted part is a secret, source code or not.
describe("names with a dotted secret part", () => {
  it.each(["config.secret.js", "app/values.secrets.yaml", "secret.json", "db.secret", "x/.app.secrets"])(
    "%s is denylisted",
    (path) => {
      expect(isDenylistedPath(path)).toBe(true);
    },
  );
  it.each(["src/secret.ts", "docs/secret-handshake.md", "src/secretary.ts", "lib/secrets-manager.ts"])(
    "%s is not",
    (path) => {
      expect(isDenylistedPath(path)).toBe(false);
    },
  );
});

// Red team, round 5: the same private key in another encoding — UTF-16 (Windows editors, PowerShell's
// `>`), base64 of the PEM (a Kubernetes Secret's `data:`), DER raw or in base64. Scanned as the companion
// scans a file: latin1 text, the first chunk at the file's start.
describe("private keys in other encodings", () => {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
  const ec = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const ed = generateKeyPairSync("ed25519");
  const pem = rsa.privateKey.export({ type: "pkcs1", format: "pem" }) as string;
  const pkcs8Pem = ed.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  const der = {
    pkcs1: rsa.privateKey.export({ type: "pkcs1", format: "der" }),
    pkcs8: rsa.privateKey.export({ type: "pkcs8", format: "der" }),
    sec1: ec.privateKey.export({ type: "sec1", format: "der" }),
    ecPkcs8: ec.privateKey.export({ type: "pkcs8", format: "der" }),
    ed25519: ed.privateKey.export({ type: "pkcs8", format: "der" }),
  };
  const scanned = (bytes: Buffer) => new PrivateKeyScan().feed(bytes.toString("latin1"));
  const b64 = (t: string | Buffer) => Buffer.from(t).toString("base64");
  it.each([
    ["UTF-16LE PEM", Buffer.from(pem, "utf16le")],
    ["UTF-16LE PEM with a BOM", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(pem, "utf16le")])],
    ["UTF-16BE PEM", Buffer.from(pem, "utf16le").swap16()],
    ["a Kubernetes Secret", Buffer.from(`kind: Secret\ndata:\n  tls.key: ${b64(pem)}\n`)],
    [
      "base64 of a PEM, wrapped at 76",
      Buffer.from(`key = """\n${b64(pkcs8Pem).replace(/(.{76})/g, "$1\n")}"""\n`),
    ],
    ["base64 of a PEM after other text", Buffer.from(`{"key":"${b64(`x${pem}`)}"}`)],
    ["raw PKCS#1 DER", der.pkcs1],
    ["raw PKCS#8 DER", der.pkcs8],
    ["raw SEC1 EC DER", der.sec1],
    ["raw Ed25519 PKCS#8 DER", der.ed25519],
    ["base64 PKCS#8 DER", Buffer.from(`${b64(der.pkcs8)}\n`)],
    ["base64 SEC1 DER in YAML", Buffer.from(`key: ${b64(der.sec1)}\n`)],
    ["base64 Ed25519 DER", Buffer.from(b64(der.ed25519))],
    ["base64 EC PKCS#8 DER", Buffer.from(b64(der.ecPkcs8))],
  ])("%s holds a private key", (_, bytes) => {
    expect(scanned(bytes)).toBe(true);
  });
  const cert = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUJ\n-----END CERTIFICATE-----\n";
  it.each([
    ["base64 of a certificate", Buffer.from(`tls.crt: ${b64(cert)}\n`)],
    ["a DER public key", rsa.publicKey.export({ type: "spki", format: "der" })],
    ["base64 of a DER public key", Buffer.from(b64(rsa.publicKey.export({ type: "spki", format: "der" })))],
    ["UTF-16 text", Buffer.from("hello -----BEGIN CERTIFICATE-----", "utf16le")],
    ["a PNG header", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])],
  ])("%s does not", (_, bytes) => {
    expect(scanned(bytes)).toBe(false);
  });
  it("property: a key found in PEM is found in each encoding, at any offset in the text", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z :=\n]{0,40}$/), fc.constantFrom("le", "b64"), (prefix, enc) => {
        const body =
          enc === "le" ? Buffer.from(`${prefix}${pem}`, "utf16le") : Buffer.from(`${prefix}${b64(pem)}`);
        expect(scanned(body)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
