// The connection indicator in the header: words and colour, so it reads without colour too.
import type { LinkState } from "../hub-socket.ts";

const words: Record<LinkState, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  offline: "Offline",
};

export function ConnectionBadge({ link }: { link: LinkState }) {
  return (
    <span class={`link link-${link}`} role="status" aria-label={`Connection: ${words[link]}`}>
      <span class="link-dot" aria-hidden="true" />
      {words[link]}
    </span>
  );
}
