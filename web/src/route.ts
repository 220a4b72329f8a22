// Every screen is a path (/, /activity, /policy, …, /pair) so a pairing URL, a notification and a bookmark all
// land on the right view; the Worker and Pages serve index.html for each of them.
import { useEffect, useState } from "preact/hooks";

export const routes = [
  "approvals",
  "activity",
  "grants",
  "devices",
  "policy",
  "proposals",
  "jobs",
  "schedules",
  "chat",
  "precog",
  "connections",
  "notifications",
  "more",
  "pair",
  "apps",
  // Remote MCP's OAuth consent page (/oauth/authorize?…), outside the tab bar.
  "oauth",
] as const;
export type Route = (typeof routes)[number];

export const pathOf: Record<Route, string> = Object.fromEntries(
  routes.map((r) => [r, r === "approvals" ? "/" : r === "oauth" ? "/oauth/authorize" : `/${r}`]),
) as Record<Route, string>;

export function routeOf(pathname: string): Route {
  const first = pathname.split("/")[1] ?? "";
  // The round-1 settings page became Policy (emergency switches first).
  if (first === "settings") return "policy";
  return (routes as readonly string[]).includes(first) ? (first as Route) : "approvals";
}

/** The rest of the path after the view ("/jobs/job_123" → "job_123"), for detail screens. */
export function routeDetail(pathname: string = location.pathname): string | null {
  const rest = pathname.split("/").slice(2).join("/");
  return rest ? decodeURIComponent(rest) : null;
}

export function navigate(target: Route | string, replace = false): void {
  const path = target.startsWith("/") ? target : pathOf[target as Route];
  if (replace) history.replaceState(null, "", path);
  else if (location.pathname + location.search !== path) history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

export function useLocation(): { route: Route; path: string; search: string } {
  const read = () => ({
    route: routeOf(location.pathname),
    path: location.pathname,
    search: location.search,
  });
  const [where, setWhere] = useState(read);
  useEffect(() => {
    const update = () => setWhere(read());
    window.addEventListener("popstate", update);
    return () => window.removeEventListener("popstate", update);
  }, []);
  return where;
}
