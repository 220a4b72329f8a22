// A live countdown to a prompt's expiry, on the hub's clock; at zero the hub denies it (deny_timeout).
import { useEffect, useState } from "preact/hooks";
import { formatRemaining } from "../labels.ts";

/** Milliseconds left until `expiresAt` on the hub's clock, updated every second. */
export function useRemaining(expiresAt: string, clockOffsetMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Date.parse(expiresAt) - (now + clockOffsetMs);
}

export function Countdown({ remaining, timeoutMs }: { remaining: number; timeoutMs: number }) {
  const fraction = Math.min(1, Math.max(0, remaining / timeoutMs));
  const urgent = remaining <= 10_000;
  return (
    <div class={`countdown${urgent ? " urgent" : ""}`}>
      <span class="countdown-text" role="timer" aria-label="Time left before this request is denied">
        {remaining > 0 ? `${formatRemaining(remaining)} left` : "Expired"}
      </span>
      <span class="countdown-bar" aria-hidden="true">
        <span style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </span>
    </div>
  );
}
