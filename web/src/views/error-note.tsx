// A failure said where it happened, announced at once to a screen reader (role="alert"); nothing when there is none.
// One component, so every view's failure looks and is announced the same.
export function ErrorNote({ message }: { message: string }) {
  return message ? (
    <p class="card-status error" role="alert">
      {message}
    </p>
  ) : null;
}
