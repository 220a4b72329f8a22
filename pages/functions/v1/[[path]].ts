// Pages Function for /v1/*: hands the request, unchanged (method, headers, cookie, body, websocket upgrade), to the
// Airlock Worker over the API service binding, and its answer back. The Worker sees the dashboard's own URL, so
// origin checks and passkeys (RP ID = this host) work on the Pages domain as they do on the Worker's.

interface Env {
  API: { fetch(request: Request): Promise<Response> };
}

export async function onRequest(context: { request: Request; env: Env }): Promise<Response> {
  return context.env.API.fetch(context.request);
}
