// Entry point of the dashboard bundle.
import "./zod-config.ts";
import { render } from "preact";
import { App } from "./app.tsx";
import "./styles.css";
import "./prompts.css";
import "./settings.css";

const root = document.getElementById("app");
if (root) render(<App />, root);
