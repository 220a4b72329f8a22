// Entry point of the dashboard bundle: plugs the passkey step-up into the API client, renders the app (behind the app
// lock when this browser has it on), fetches the validators, then registers the service worker (installable PWA,
// push).
import { render } from "preact";
import { provideStepUp } from "./api.ts";
import { App } from "./app.tsx";
import { AppLockGate } from "./app-lock.tsx";
import { appLockOn } from "./app-lock-store.ts";
import { loadValidators } from "./load-validators.ts";
import "./styles.css";
import "./prompts.css";
import "./settings.css";
import "./views.css";
import "./insights.css";
import "./dock.css";
import "./connections.css";

// Loaded when a call first needs it. Wired here, not imported by api.ts: passkeys.ts calls the API itself.
provideStepUp(async () => (await import("./passkeys.ts")).stepUp());

const root = document.getElementById("app");
// The app lock's setting is read first (one Cache API lookup), so a locked browser never paints the app.
if (root)
  void appLockOn().then((locked) =>
    render(
      <AppLockGate locked={locked}>
        <App />
      </AppLockGate>,
      root,
    ),
  );
// At once, not on the first message: the socket and the validators then travel in parallel. A failure here is
// retried by whichever message or request needs them.
loadValidators().catch(() => undefined);

function registerServiceWorker(): void {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error: unknown) => {
    console.warn("[airlock] service worker not registered", error);
  });
}

if ("serviceWorker" in navigator) {
  // After the page has loaded: the worker precaches the build, which must not compete with the first prompt.
  if (document.readyState === "complete") registerServiceWorker();
  else window.addEventListener("load", registerServiceWorker, { once: true });
}
