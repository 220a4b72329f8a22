// Views other than Approvals load on demand: the first view's JavaScript stays small, the rest arrive when opened.
import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";

type Loader<P> = () => Promise<ComponentType<P>>;

export function lazyView<P extends object>(load: Loader<P>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  return function LazyView(props: P) {
    const [View, setView] = useState<ComponentType<P> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (View || failed) return;
      pending ??= load();
      pending.then(
        (component) => {
          loaded = component;
          setView(() => component);
        },
        () => {
          pending = null;
          setFailed(true);
        },
      );
    }, [View, failed]);
    if (View) return <View {...props} />;
    return (
      <main class="view">
        <p class="muted" role="status">
          {failed ? "This view could not load. Check the connection and try again." : "Loading…"}
        </p>
        {failed ? (
          <button type="button" class="decision neutral" onClick={() => setFailed(false)}>
            Try again
          </button>
        ) : null}
      </main>
    );
  };
}
