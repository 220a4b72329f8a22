// The e2e run's edges, started one file ahead: an e2e file that wants a plain fresh edge (`startEdge()` with no
// options) takes the one the pool started while the previous file ran, instead of waiting the seconds a wrangler
// dev start costs (bundle, workerd, migrations copy, owner bootstrap). Each edge is still fresh and used by one
// file only; the pool runs in vitest's main process (test/e2e/global-setup.ts) and answers on loopback.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EdgeHandle, type Launch, launchEdge } from "./edge.ts";

interface Pooled {
  launch: Launch;
  logFile: string;
}

export interface EdgePool {
  url: string;
  close(): Promise<void>;
}

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    let text = "";
    req.on("data", (d) => {
      text += d;
    });
    req.on("end", () => resolveBody(text));
    req.on("error", reject);
  });
}

/** `prepare` runs once before the first edge starts (the dashboard build the edges serve). */
export async function startEdgePool(prepare: () => void): Promise<EdgePool> {
  const logs = mkdtempSync(join(tmpdir(), "airlock-e2e-edge-logs-"));
  const taken = new Map<number, Pooled>();
  let spare: Pooled | undefined;
  let prepared = false;
  let closed = false;
  let count = 0;

  const launch = (): Pooled => {
    if (!prepared) {
      prepare();
      prepared = true;
    }
    const logFile = join(logs, `edge-${++count}.log`);
    const pooled = { launch: launchEdge({}, logFile), logFile };
    // A failed start is reported to the file that takes it; until then it must not count as unhandled.
    pooled.launch.ready.catch(() => {});
    return pooled;
  };

  const take = async (): Promise<{ handle: EdgeHandle; logFile: string }> => {
    let next = spare ?? launch();
    spare = undefined;
    let handle: EdgeHandle;
    try {
      handle = await next.launch.ready;
    } catch {
      // A spare that died while waiting (a killed process, a busy machine's timeout): one fresh try, reported as is.
      await next.launch.stop();
      next = launch();
      handle = await next.launch.ready;
    }
    taken.set(handle.port, next);
    // The next file's edge starts now, after this one is up, so two starts never compete for the cores.
    if (!closed) spare = launch();
    return { handle, logFile: next.logFile };
  };

  const server = createServer(async (req, res) => {
    try {
      if (req.method === "POST" && req.url === "/take") {
        const taking = await take();
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(taking));
        return;
      }
      if (req.method === "POST" && req.url === "/stop") {
        const port = Number(await bodyOf(req));
        const pooled = taken.get(port);
        if (!pooled) {
          res.writeHead(404).end(`no edge of this pool on port ${port}`);
          return;
        }
        taken.delete(port);
        await pooled.launch.stop();
        rmSync(pooled.logFile, { force: true });
        res.writeHead(204).end();
        return;
      }
      res.writeHead(404).end();
    } catch (error) {
      res.writeHead(500).end(error instanceof Error ? error.message : String(error));
    }
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      closed = true;
      await new Promise((done) => server.close(done));
      const all = [...taken.values(), ...(spare ? [spare] : [])];
      taken.clear();
      spare = undefined;
      // A spare still starting is stopped too: stop() kills whatever child it has, and the start then fails unseen.
      await Promise.all(all.map((p) => p.launch.stop()));
      rmSync(logs, { recursive: true, force: true });
    },
  };
}
