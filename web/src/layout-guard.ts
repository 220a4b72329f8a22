// Taps that land just after the layout moved are ignored: a card that appears, grows or leaves above a finger must
// not turn the second half of a double tap into a decision on something the person never saw.
import { useEffect, useRef } from "preact/hooks";

export const SETTLE_MS = 600;

export interface LayoutGuard {
  /** True when the layout has been still long enough for a tap to mean what the person saw. */
  steady(now?: number): boolean;
}

/** Watches `target`'s size and children; `steady()` is false for SETTLE_MS after any change. */
export function useLayoutGuard(target: { current: HTMLElement | null }): LayoutGuard {
  const changedAt = useRef(0);
  useEffect(() => {
    const element = target.current;
    if (!element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // `data-settling` marks the window in the DOM too (tests and styles can see it).
    const mark = () => {
      changedAt.current = performance.now();
      element.dataset.settling = "";
      clearTimeout(timer);
      timer = setTimeout(() => delete element.dataset.settling, SETTLE_MS);
    };
    const resize = new ResizeObserver(mark);
    resize.observe(element);
    const mutations = new MutationObserver(mark);
    mutations.observe(element, { childList: true });
    return () => {
      clearTimeout(timer);
      resize.disconnect();
      mutations.disconnect();
    };
  }, [target]);
  return { steady: (now = performance.now()) => now - changedAt.current >= SETTLE_MS };
}
