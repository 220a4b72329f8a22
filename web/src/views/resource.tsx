// Loading one API resource for a view, with the states every view shows the same way: loading, error (with
// retry), offline, and "not enabled on this server" when the route does not exist there (404 for the path).
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import type { z } from "zod";
import { ApiError, api, errorMessage, isNotEnabled } from "../api.ts";

export type Resource<T> =
  | { state: "loading" }
  | { state: "ready"; data: T }
  | { state: "error"; message: string }
  | { state: "offline" }
  | { state: "not_enabled" };

export function useResource<T>(path: string | null, schema: z.ZodType<T>): [Resource<T>, () => void] {
  const [resource, setResource] = useState<Resource<T>>({ state: "loading" });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    setResource((current) => (current.state === "ready" ? current : { state: "loading" }));
    api(path, schema).then(
      (data) => live && setResource({ state: "ready", data }),
      (error: unknown) => {
        if (!live) return;
        if (isNotEnabled(error)) setResource({ state: "not_enabled" });
        else if (error instanceof ApiError && error.status === 0) setResource({ state: "offline" });
        else setResource({ state: "error", message: errorMessage(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [path, schema, version]);
  useEffect(() => {
    const again = () => setVersion((v) => v + 1);
    window.addEventListener("online", again);
    return () => window.removeEventListener("online", again);
  }, []);
  return [resource, useCallback(() => setVersion((v) => v + 1), [])];
}

interface ShowProps<T> {
  resource: Resource<T>;
  reload(): void;
  /** What the feature is called, for "Jobs are not enabled on this server". */
  feature: string;
  children(data: T): ComponentChildren;
}

export function Show<T>({ resource, reload, feature, children }: ShowProps<T>) {
  switch (resource.state) {
    case "loading":
      return (
        <p class="muted" role="status">
          Loading…
        </p>
      );
    case "not_enabled":
      return (
        <div class="panel notice" role="note">
          <p>
            <strong>{feature} not enabled on this server.</strong>
          </p>
          <p class="muted small">
            This Airlock does not offer it yet; it appears here once the server has it.
          </p>
        </div>
      );
    case "offline":
    case "error":
      return (
        <div class="panel notice" role="alert">
          <p>{resource.state === "offline" ? "Offline: Airlock is unreachable." : resource.message}</p>
          <button type="button" class="small-button" onClick={reload}>
            Try again
          </button>
        </div>
      );
    case "ready":
      return <>{children(resource.data)}</>;
  }
}

export function ViewTitle({ children, id }: { children: ComponentChildren; id: string }) {
  return (
    <h1 id={id} class="section-title">
      {children}
    </h1>
  );
}
