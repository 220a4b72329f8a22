// The step-up sheet's styles (web/src/step-up-sheet.ts), adopted as a constructed stylesheet when the sheet first
// opens: they ship with the sheet's chunk, never in the first view, and need no stylesheet file (a small one would be
// inlined as a data: URL, which the CSP's style-src 'self' refuses).
export const STEP_UP_SHEET_CSS = `
.step-up-sheet {
  border: none;
  border-radius: var(--radius) var(--radius) 0 0;
  margin: auto auto 0;
  width: 100%;
  max-width: 560px;
  max-height: 92vh;
  padding: 20px 16px calc(20px + env(safe-area-inset-bottom));
  background: var(--surface);
  color: var(--text);
  overflow-y: auto;
}
.step-up-sheet::backdrop {
  background: rgb(0 0 0 / 0.55);
}
.step-up-sheet h2 {
  margin: 0 0 8px;
  font-size: 1.15rem;
}
.step-up-sheet p {
  margin: 0 0 12px;
  overflow-wrap: anywhere;
}
.step-up-sheet a {
  color: var(--accent);
  font-weight: 650;
  display: inline-block;
  min-height: 44px;
  padding: 10px 0;
}
.step-up-sheet label {
  display: block;
  font-weight: 650;
  margin: 4px 0 6px;
}
.step-up-sheet input {
  width: 100%;
  box-sizing: border-box;
  min-height: 48px;
  font: inherit;
  font-family: ui-monospace, monospace;
  letter-spacing: 0.04em;
  padding: 10px 12px;
  border: 1px solid var(--line);
  border-radius: 10px;
  background: var(--bg);
  color: var(--text);
}
.step-up-sheet .step-up-actions {
  display: grid;
  gap: 10px;
  margin-top: 14px;
}
.step-up-sheet .new-code {
  font-family: ui-monospace, monospace;
  font-size: 1.1rem;
  font-weight: 700;
  padding: 12px;
  border: 2px dashed var(--line);
  border-radius: 10px;
  text-align: center;
  user-select: all;
}
`;
