// What the shell hands every routed view. Kept apart from app.tsx, which loads the views: a view that imported
// this type from the shell would tie every lazy view back to it (an import cycle, check-imports.mjs).
import type { Hub } from "../use-hub.ts";

export interface ViewProps {
  hub: Hub;
  /** The location's path, for views that read an id or a tab from it. */
  path: string;
  /** This device was revoked from within the view: the shell returns to the pairing screen. */
  onSelfRevoked(): void;
}
