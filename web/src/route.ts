// The three screens are paths (/, /settings, /pair) so a pairing URL and a bookmark of settings both work;
// the Worker and Pages serve index.html for each of them.
import { useEffect, useState } from "preact/hooks";

export type Route = "approvals" | "settings" | "pair";

export function routeOf(pathname: string): Route {
  if (pathname.startsWith("/pair")) return "pair";
  if (pathname.startsWith("/settings")) return "settings";
  return "approvals";
}

export const pathOf: Record<Route, string> = { approvals: "/", settings: "/settings", pair: "/pair" };

export function navigate(route: Route, replace = false): void {
  const path = pathOf[route];
  if (replace) history.replaceState(null, "", path);
  else if (location.pathname !== path) history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.pathname));
  useEffect(() => {
    const update = () => setRoute(routeOf(location.pathname));
    window.addEventListener("popstate", update);
    return () => window.removeEventListener("popstate", update);
  }, []);
  return route;
}
