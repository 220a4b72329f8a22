// The release version reported by GET /v1/version (kept in step with package.json).
export const VERSION = "0.1.0";
