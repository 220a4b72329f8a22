// The pending count where a person sees it without opening the tab: the tab title ("(2) Airlock") and the
// installed app's badge (Badging API, where the browser has it).
import { useEffect } from "preact/hooks";

export function titleFor(pending: number): string {
  return pending > 0 ? `(${pending}) Airlock` : "Airlock";
}

export function usePendingBadge(pending: number): void {
  useEffect(() => {
    document.title = titleFor(pending);
    const nav = navigator as Navigator & {
      setAppBadge?: (count?: number) => Promise<void>;
      clearAppBadge?: () => Promise<void>;
    };
    const done = pending > 0 ? nav.setAppBadge?.(pending) : nav.clearAppBadge?.();
    done?.catch(() => {
      // Not installed, or the badge is not allowed here: the title still says it.
    });
  }, [pending]);
}
