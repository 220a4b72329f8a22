// The e2e run's edges, started one file ahead: an e2e file that wants a plain fresh edge (`startEdge()` with no
// options) takes the one the pool started while the previous file ran, instead of waiting the seconds a wrangler
// dev start costs (bundle, workerd, migrations copy, owner bootstrap). Each edge is still fresh and used by one
// file only; the pool runs in vitest's main process (test/e2e/global-setup.ts) and answers on loopback. Edges with
// options start here too, so that no two wrangler starts ever overlap: each picks free ports (its own, workerd's,
// the inspector's) and binds them later, and two at once can pick the same one.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EdgeHandle, type EdgeOptions, type Launch, launchEdge } from "./edge.ts";

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

  // One start at a time: the next begins once the previous one is up (or failed).
  let starts: Promise<unknown> = Promise.resolve();
  const launch = (options: EdgeOptions = {}): Pooled => {
    if (!prepared) {
      prepare();
      prepared = true;
    }
    const logFile = join(logs, `edge-${++count}.log`);
    let started: Launch | undefined;
    let stopped = false;
    const ready = starts.then(() => {
      if (stopped) throw new Error("edge stopped before it started");
      started = launchEdge(options, logFile);
      return started.ready;
    });
    starts = ready.catch(() => {});
    // A failed start is reported to the file that takes it; until then it must not count as unhandled.
    ready.catch(() => {});
    return {
      logFile,
      launch: {
        ready,
        output: () => started?.output() ?? "",
        async stop() {
          stopped = true;
          await started?.stop();
        },
      },
    };
  };

  const take = async (options: EdgeOptions): Promise<{ handle: EdgeHandle; logFile: string }> => {
    if (Object.keys(options).length > 0) {
      const own = launch(options);
      try {
        const handle = await own.launch.ready;
        taken.set(handle.port, own);
        return { handle, logFile: own.logFile };
      } catch (error) {
        await own.launch.stop();
        throw error;
      }
    }
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
    // The next file's edge starts now, after this one is up.
    if (!closed) spare = launch();
    return { handle, logFile: next.logFile };
  };

  const server = createServer(async (req, res) => {
    try {
      if (req.method === "POST" && req.url === "/take") {
        const taking = await take(JSON.parse((await bodyOf(req)) || "{}") as EdgeOptions);
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
      // A spare still waiting or starting is stopped too: its start then fails unseen.
      await Promise.all(all.map((p) => p.launch.stop()));
      rmSync(logs, { recursive: true, force: true });
    },
  };
}
