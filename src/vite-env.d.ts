/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API base address used on local hosts (spec §7); empty = same origin. */
  readonly VITE_API_BASE_LOCAL?: string;
  /** API base address used on every other host; empty = same origin. */
  readonly VITE_API_BASE_PRODUCTION?: string;
  /** '1' streams the statecharts to the Stately inspector (development). */
  readonly VITE_INSPECT?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
